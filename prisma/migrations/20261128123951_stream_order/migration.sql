-- The live streams' order (src/domain/webhooks/event-feed.service.ts): the writing transaction's id, then the row id.
-- Existing rows all take this migration's transaction id; they keep their order among themselves by id.
-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "txid" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint;

-- CreateIndex
CREATE INDEX "OutboxEvent_txid_id_idx" ON "OutboxEvent"("txid", "id");
