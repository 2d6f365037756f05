-- DropIndex
DROP INDEX "WebhookDelivery_subscriptionId_idx";

-- AlterTable (existing rows take their id and type from the payload they carry)
ALTER TABLE "OutboxEvent" ADD COLUMN     "eventId" TEXT,
ADD COLUMN     "relayedAt" TIMESTAMP(3),
ADD COLUMN     "type" TEXT;
UPDATE "OutboxEvent" SET "eventId" = "payload"->>'id', "type" = "payload"->>'type';
ALTER TABLE "OutboxEvent" ALTER COLUMN "eventId" SET NOT NULL, ALTER COLUMN "type" SET NOT NULL;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "attemptLog" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "eventId" TEXT,
ADD COLUMN     "lastAttemptAt" TIMESTAMP(3),
ADD COLUMN     "roundStart" INTEGER NOT NULL DEFAULT 0;
UPDATE "WebhookDelivery" SET "eventId" = COALESCE("payload"->>'id', '');
ALTER TABLE "WebhookDelivery" ALTER COLUMN "eventId" SET NOT NULL;

-- AlterTable
ALTER TABLE "WebhookSubscription" ADD COLUMN     "failingSince" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "OutboxEvent_accountId_createdAt_id_idx" ON "OutboxEvent"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "OutboxEvent_relayedAt_id_idx" ON "OutboxEvent"("relayedAt", "id");

-- CreateIndex
CREATE INDEX "OutboxEvent_createdAt_idx" ON "OutboxEvent"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_createdAt_id_idx" ON "WebhookDelivery"("subscriptionId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_status_createdAt_id_idx" ON "WebhookDelivery"("subscriptionId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");
