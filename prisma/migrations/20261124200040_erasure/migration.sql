-- CreateEnum
CREATE TYPE "ErasureStatus" AS ENUM ('pending', 'running', 'done');

-- DropIndex
DROP INDEX "Submission_accountId_idx";

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "formId" INTEGER;

-- CreateTable
CREATE TABLE "ErasureRequest" (
    "id" SERIAL NOT NULL,
    "accountId" INTEGER NOT NULL,
    "apiKeyId" INTEGER,
    "emailHash" TEXT NOT NULL,
    "status" "ErasureStatus" NOT NULL DEFAULT 'pending',
    "submissionsErased" INTEGER NOT NULL DEFAULT 0,
    "cursorId" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "ErasureRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ErasureRequest_accountId_idx" ON "ErasureRequest"("accountId");

-- CreateIndex
CREATE INDEX "Submission_accountId_id_idx" ON "Submission"("accountId", "id");

-- AddForeignKey
ALTER TABLE "ErasureRequest" ADD CONSTRAINT "ErasureRequest_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
