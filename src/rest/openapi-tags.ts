/**
 * The document's tags, in the reference's menu order, each with what a person (or an agent) finds under it. Every
 * route's `tag` must be one of these: buildOpenApi refuses an undeclared one.
 */
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  { name: 'Forms', description: 'Forms of the account: create them on a verified domain, change their fields, archive and restore them.' },
  { name: 'Submissions', description: 'What visitors submitted through a form: list, read, ingest (idempotently) and export them.' },
  { name: 'Erasure', description: 'Erasing submissions for good, one by one or every submission of a person by email (right to be forgotten).' },
  { name: 'Calendar widgets', description: 'Booking calendars embedded on the account’s sites.' },
  { name: 'Bookings', description: 'Appointments booked through a calendar widget.' },
  { name: 'Shop widgets', description: 'Products sold through an embedded shop (ecommerce) widget.' },
  { name: 'Orders', description: 'Orders placed through a shop widget or a cart/catalog collection.' },
  { name: 'Webhooks', description: 'Subscriptions that POST signed events (Standard Webhooks) to an https URL, their delivery log, redelivery and replay.' },
  { name: 'Events', description: 'The events of the last 30 days, exactly as delivered to webhooks.' },
  { name: 'Site catalog', description: 'With a site key: the widgets a site embeds, with their embed snippets.' },
  { name: 'Site verification', description: 'With a site key: proving ownership of the site’s domain.' },
  { name: 'Rate limit', description: 'What is left of the key’s hourly budget of points, shared by /v1 and /graphql; asking costs nothing.' },
  { name: 'API keys', description: 'The account’s API keys with manage:api_keys: list, create (shown once), roll with an overlap, revoke.' },
];
