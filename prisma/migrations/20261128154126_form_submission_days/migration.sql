-- CreateTable
CREATE TABLE "FormSubmissionDay" (
    "formId" INTEGER NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "FormSubmissionDay_pkey" PRIMARY KEY ("formId","day")
);

-- AddForeignKey
ALTER TABLE "FormSubmissionDay" ADD CONSTRAINT "FormSubmissionDay_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: every form's existing submissions, per UTC day (createdAt is stored as UTC).
INSERT INTO "FormSubmissionDay" ("formId", "day", "count")
SELECT "formId", date_trunc('day', "createdAt"), count(*)::int FROM "Submission" GROUP BY 1, 2;
