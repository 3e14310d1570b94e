-- Spring Modulith 2.1.1's event publication table for MariaDB: the columns of spring-modulith-events-jdbc's
-- schemas/v2 tables, in the lower case Boot's naming strategy gives the JPA registry's names (table names are
-- case-sensitive on Linux), with MariaDB's UUID type for the id Hibernate binds as a UUID.
CREATE TABLE IF NOT EXISTS event_publication
(
  id                     UUID NOT NULL,
  listener_id            VARCHAR(512) NOT NULL,
  event_type             VARCHAR(512) NOT NULL,
  serialized_event       TEXT NOT NULL,
  publication_date       TIMESTAMP(6) NOT NULL,
  completion_date        TIMESTAMP(6) NULL DEFAULT NULL,
  status                 VARCHAR(20),
  completion_attempts    INT,
  last_resubmission_date TIMESTAMP(6) NULL DEFAULT NULL,
  PRIMARY KEY (id),
  INDEX event_publication_by_completion_date_idx (completion_date)
);
