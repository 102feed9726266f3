DROP TABLE payouts;
DROP TABLE wallets;
