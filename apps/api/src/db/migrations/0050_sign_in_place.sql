-- Where a sign-in came from, looked up in the IP database before the address is masked (ADR 065).
ALTER TABLE "refresh_tokens" ADD COLUMN "place" text;
