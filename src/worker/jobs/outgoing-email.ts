/** One message as the email job sends it (ingest emails, the webhook-deactivated email). */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per (kind, submission): a retried send carries the same Message-ID, so receivers can dedupe. */
  messageId: string;
}
