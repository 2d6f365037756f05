-- AlterTable
ALTER TABLE "Site" ADD COLUMN     "demo" BOOLEAN NOT NULL DEFAULT false;
