import { z } from 'zod';
import { domainRefSchema } from '../schemas.js';

/* The documented v1 shapes of calendar widgets, bookings, shop widgets, orders and site catalog entries.
   Parsing a GraphQL result through them keeps exactly these fields (z.object drops anything else), and each
   documented field is present: null where the value is absent (decisions §5). */

const id = z.number().int();
const jsonObject = z.record(z.string(), z.unknown());

const calendarBase = {
  id,
  name: z.string(),
  domain: domainRefSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** Lists: with bookingCount, without settings/appearance/behavior. */
export const calendarWidgetListItemSchema = z.object({ ...calendarBase, bookingCount: z.number().int() });
/** Single view: settings/appearance/behavior (webhook keys stripped), without bookingCount. */
export const calendarWidgetSchema = z.object({ ...calendarBase, settings: jsonObject, appearance: jsonObject, behavior: jsonObject });

export const bookingSchema = z.object({
  id,
  calendarWidgetId: id,
  inviteeName: z.string(),
  inviteeEmail: z.string(),
  slotIso: z.string(),
  slotDisplay: z.string(),
  inviteeTimezone: z.string(),
  status: z.enum(['scheduled', 'cancelled', 'no_show', 'completed', 'failed']),
  customFields: jsonObject,
  videoCallUrl: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

const shopBase = {
  id,
  name: z.string(),
  type: z.enum(['one_time', 'subscription', 'donation']),
  productName: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int().nullable(),
  currency: z.string(),
  fulfilmentType: z.enum(['digital', 'service', 'physical']),
  imageUrl: z.string().nullable(),
  domain: domainRefSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** Lists: with orderCount, without imageUrls/interval/trialDays. */
export const ecommerceWidgetListItemSchema = z.object({ ...shopBase, orderCount: z.number().int() });
/** Single view: imageUrls, interval, trialDays, without orderCount. */
export const ecommerceWidgetSchema = z.object({
  ...shopBase,
  imageUrls: z.array(z.string()),
  interval: z.enum(['day', 'week', 'month', 'year']).nullable(),
  trialDays: z.number().int().nullable(),
});

export const orderSchema = z.object({
  id,
  ecommerceWidgetId: id.nullable(),
  collectionId: id.nullable(),
  customerName: z.string().nullable(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(['paid', 'shipped', 'refunded', 'failed']),
  shippingAddress: jsonObject.nullable(),
  trackingNumber: z.string().nullable(),
  trackingCarrier: z.string().nullable(),
  shippedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export const catalogEntrySchema = z.object({
  kind: z.enum(['form', 'calendar', 'ecommerce']),
  id,
  name: z.string(),
  type: z.string().nullable(),
  updatedAt: z.iso.datetime(),
  embedHtml: z.string(),
});
