-- Not read: hidden directories are skipped.
ALTER TABLE payouts ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
