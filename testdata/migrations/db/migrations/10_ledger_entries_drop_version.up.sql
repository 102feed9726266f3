-- Applied after 2_create_ledger_entries (version 10 > 2, though "10" sorts
-- before "2" by name): ledger_entries ends without a version column.
ALTER TABLE ledger_entries DROP COLUMN version;
