-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_messageId_key" ON "WebhookDelivery"("messageId");
