-- ADR 060: a deleted account keeps its row (orders and ledger lines point at it) without who it was.
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamp with time zone;
