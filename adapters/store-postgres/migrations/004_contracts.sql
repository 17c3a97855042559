-- Deployed contracts, so later calls can name and type their arguments. The ABI is jsonb only for
-- inspection by operators; the service reads it whole.
CREATE TABLE contracts (
  contract_identifier text COLLATE "C" PRIMARY KEY,
  abi jsonb,
  source_code text NOT NULL,
  clarity_version integer
);
