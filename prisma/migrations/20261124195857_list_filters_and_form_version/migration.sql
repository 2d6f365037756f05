-- AlterTable
ALTER TABLE "Form" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE INDEX "Booking_calendarWidgetId_status_createdAt_id_idx" ON "Booking"("calendarWidgetId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Order_ecommerceWidgetId_status_createdAt_id_idx" ON "Order"("ecommerceWidgetId", "status", "createdAt" DESC, "id" DESC);
