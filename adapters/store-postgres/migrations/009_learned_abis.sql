-- ABIs learned from a node's RPC for contracts whose deploy the service never saw: no source code.
ALTER TABLE contracts ALTER COLUMN source_code DROP NOT NULL;
