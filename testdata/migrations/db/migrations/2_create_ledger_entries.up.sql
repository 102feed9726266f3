CREATE TABLE ledger_entries (
    id        BIGSERIAL PRIMARY KEY,
    wallet_id BIGINT NOT NULL REFERENCES wallets (id),
    amount    BIGINT NOT NULL,
    version   INT NOT NULL DEFAULT 0
);
