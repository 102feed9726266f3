-- Not read: testdata is skipped.
ALTER TABLE payouts ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
