-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "traceparent" TEXT;
