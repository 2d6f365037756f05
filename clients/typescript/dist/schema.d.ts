export interface paths {
    "/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List forms
         * @description The account's active forms (with archived=true, only archived ones), newest first, each with its submissionCount and domain; filter by domainId. Use it to find a form's id before reading, changing or ingesting into it. Needs read:forms.
         */
        get: operations["list-forms"];
        put?: never;
        /**
         * Create a form
         * @description Creates a form from a name and its fields on a verified production domain (domainId; optional when the account has exactly one). 201 with the form and a Location header. Refused with 402 plan_limit_reached when the site's plan cap is reached, 400 domain_required or invalid_domain when no usable domain is named. Needs write:forms.
         */
        post: operations["create-form"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a form
         * @description One form by id with its field definitions (id, type, label, required, options), domain and submissionCount. 404 not_found for an archived form or another account's. Needs read:forms.
         */
        get: operations["get-form"];
        put?: never;
        post?: never;
        /**
         * Archive a form
         * @description Archives a form (204): it leaves the forms list and GET answers 404, its submissions stay readable and exportable, and ingest answers 409 form_archived. Restore it with PATCH {archived: false}. Needs write:forms.
         */
        delete: operations["archive-form"];
        options?: never;
        head?: never;
        /**
         * Update a form
         * @description Changes a form's name, fields or write-only webhookUrl (null clears it), or archives (archived: true) or restores (archived: false) it; answers the updated form. Other members are 400 forbidden_field. Needs write:forms.
         */
        patch: operations["update-form"];
        trace?: never;
    };
    "/forms/{id}/submissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a form's submissions
         * @description A form's submissions (archived forms too), newest first, with their formData; narrow by a createdAt window [createdFrom, createdBefore). Fix createdBefore to walk a growing list without pages shifting. For a whole form at once, use the export. Needs read:submissions.
         */
        get: operations["list-form-submissions"];
        put?: never;
        /**
         * Submit a form entry
         * @description Records a submission as the widget would (webhooks, emails, PHI encryption run as for a visitor's). Send an Idempotency-Key to retry safely: a replay answers 200 with the first submission and Idempotent-Replayed: true. At most 50 formData fields and 51200 bytes. Needs write:submissions.
         */
        post: operations["ingest-submission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/submissions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a submission
         * @description One submission by id with its formData, form id, source domain and createdAt. 404 not_found once erased or for another account's. Needs read:submissions.
         */
        get: operations["get-submission"];
        put?: never;
        post?: never;
        /**
         * Erase a submission
         * @description Erases one submission for good (204): it is gone from reads, lists, totals and counts, and its formData from every stored copy (idempotency records, events, webhook payloads). Fires submission.deleted; a replay of its Idempotency-Key then answers 404. Cannot be undone. Needs write:submissions.
         */
        delete: operations["delete-submission"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/site-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the site's verification status
         * @description With a site key: whether the key's site is verified, by which method and when, with the DNS TXT, meta tag and WordPress plugin instructions while it is not.
         */
        get: operations["get-site-verification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/site-verification/attempt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check site ownership now
         * @description With a site key: runs the WordPress plugin ownership check at once; 200 with the verification status, or 422 wp_plugin_fetch_failed with each probed path and why it failed. Draws on the site key's attempt budget (30 per hour).
         */
        post: operations["attempt-site-verification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calendar-widgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List calendar widgets
         * @description The account's booking calendar widgets, newest first, each with its bookingCount; filter by domainId. Use it to find a calendar's id before listing its bookings. Needs read:calendars.
         */
        get: operations["list-calendar-widgets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calendar-widgets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a calendar widget
         * @description One calendar widget by id with its settings, appearance and behavior (keys naming a webhook removed) and bookingCount. Needs read:calendars.
         */
        get: operations["get-calendar-widget"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/calendar-widgets/{id}/bookings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a calendar widget's bookings
         * @description A calendar widget's bookings, newest first, with invitee, slot, timezone and status; filter by one status and a createdAt window [createdFrom, createdBefore). Needs read:bookings.
         */
        get: operations["list-calendar-widget-bookings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bookings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a booking
         * @description One booking by id: invitee name and email, slot, timezone, status, custom fields and video-call link. Needs read:bookings.
         */
        get: operations["get-booking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ecommerce-widgets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List shop widgets
         * @description The account's shop (ecommerce) widgets, newest first, with product, price, currency and orderCount; filter by domainId. Use it to find a shop widget's id before listing its orders. Needs read:ecommerce.
         */
        get: operations["list-ecommerce-widgets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ecommerce-widgets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a shop widget
         * @description One shop widget by id with its product, price, fulfilment, imageUrls, and for subscriptions interval and trialDays. Needs read:ecommerce.
         */
        get: operations["get-ecommerce-widget"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ecommerce-widgets/{id}/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a shop widget's orders
         * @description A shop widget's orders, newest first, with customer, amount, status and shipping; filter by one status and a createdAt window [createdFrom, createdBefore). Orders of cart/catalog collections are read with get-order. Needs read:orders.
         */
        get: operations["list-ecommerce-widget-orders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an order
         * @description One order by id, widget-mode (ecommerceWidgetId set) or cart/catalog (collectionId set): customer, amount, currency, status, shipping address and tracking. Needs read:orders.
         */
        get: operations["get-order"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/site-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the site's widgets
         * @description With a site key: the site's active forms, calendars and shop widgets (one kind with kind=), newest first, each with the HTML snippet that embeds it.
         */
        get: operations["list-site-catalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description The account's webhook subscriptions, newest first, with url, event, form and active flag; never their secrets. Any key of the account.
         */
        get: operations["list-webhooks"];
        put?: never;
        /**
         * Subscribe a webhook
         * @description Subscribes an https URL to one event kind (optionally of one form). 201 with the subscription and its signing secret (whsec_…), shown only this once; an identical url, event and form answers 200 with the existing subscription and secret null. Needs the read scope of the event's resource.
         */
        post: operations["create-webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description One webhook subscription by id (without its secret), with whether it is active. Any key of the account.
         */
        get: operations["get-webhook"];
        put?: never;
        post?: never;
        /**
         * Unsubscribe a webhook
         * @description Deletes a webhook subscription (204); no more deliveries are made to it. Works on every plan, the Free plan included.
         */
        delete: operations["delete-webhook"];
        options?: never;
        head?: never;
        /**
         * Update a webhook subscription
         * @description Changes a subscription's url, or turns it off or back on (active); other members are 400 forbidden_field. Needs the read scope of the subscription's event.
         */
        patch: operations["update-webhook"];
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a webhook's deliveries
         * @description A subscription's delivery log, newest first: status (pending, succeeded, failed), attempts, last status code and error, next attempt; filter by status. No payloads. Use it to see why a receiver missed events. Any key of the account.
         */
        get: operations["list-webhook-deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook delivery
         * @description One delivery with the exact JSON body sent and every attempt (time, status code, error, duration). Needs the read scope of the subscription's event.
         */
        get: operations["get-webhook-delivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeliver a webhook delivery
         * @description Sends one delivery again with its original webhook-id and payload (receivers de-duplicate on it); 202 with the delivery, now pending. Needs the read scope of the subscription's event.
         */
        post: operations["redeliver-webhook-delivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a webhook's deliveries
         * @description Sends again every delivery of the subscription created in [createdFrom, createdBefore) (at most 30 days; only failed ones with status: failed), each with its original webhook-id; 202 with the number queued. Use it after a receiver's outage. Needs the read scope of the subscription's event.
         */
        post: operations["replay-webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ping a webhook
         * @description Sends a webhook.ping event ({ id, type, createdAt, data: { webhookId } }) to the subscription's URL at once, to test a receiver and its signature check; 202 with the new delivery. Any key of the account.
         */
        post: operations["ping-webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream live events
         * @description Server-sent events (text/event-stream): each new event as GET /events/{id} answers it (id: <event id>, event: <type>, data: <JSON>), only the kinds whose read scope the key holds, optionally one type. Resumes after Last-Event-ID (header, or lastEventId) with no gap and no duplicate; without it, from the moment of connection. A : keep-alive comment at least every 15 s. At most 5 open streams per key (REST and GraphQL together); opening one costs 1 request.
         */
        get: operations["stream-events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description Events of the last 30 days (submission.created, form.created, …), newest first, exactly as they were delivered to webhooks; filter by type and createdAt window. A key sees only the kinds whose read scope it holds. Use it to catch up on what a receiver missed.
         */
        get: operations["list-events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an event
         * @description One event (evt_…) as it was delivered: { id, type, createdAt, data }. 404 for a kind whose read scope the key lacks.
         */
        get: operations["get-event"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/erasure-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a person's submissions
         * @description Starts erasing, in the background, every submission of the account (PHI forms included) one of whose formData values is this email, trimmed and case-insensitive; 202 with the request, status pending. Follow it with get-erasure-request. Cannot be undone. Needs write:submissions.
         */
        post: operations["create-erasure-request"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/erasure-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an erasure request
         * @description Follows an erasure request: status pending, running, then done, with the number of submissions erased so far. Needs write:submissions.
         */
        get: operations["get-erasure-request"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/submissions/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a form's submissions
         * @description Streams every submission of a form (archived forms too), oldest first, as NDJSON (one v1 Submission per line, the default) or CSV (RFC 4180: id, createdAt, sourceDomain, one column per field label, then other formData keys sorted); optional createdAt window. One request of budget whatever the size. Needs read:submissions.
         */
        get: operations["export-form-submissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The account's API keys, newest first, revoked ones included, with name, scopes, last four characters, expiry, revocation and last use; never a key or its hash. Needs manage:api_keys.
         */
        get: operations["list-api-keys"];
        put?: never;
        /**
         * Create an API key
         * @description Issues a key: 201 with the key itself, shown only in this answer (it is stored as a keyed hash). Scopes default to every read: scope; the new key may hold only scopes the calling key holds (403 insufficient_scope otherwise). Needs manage:api_keys.
         */
        post: operations["create-api-key"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One of the account's API keys (never the key or its hash); another account's key is 404 like an unknown id. Needs manage:api_keys.
         */
        get: operations["get-api-key"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes a key at once, on every replica (a key may revoke itself); 204. Needs manage:api_keys.
         */
        delete: operations["revoke-api-key"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{id}/roll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll an API key
         * @description Rotates a key without downtime: 201 with a new key of the same name and scopes, shown once; the rolled key keeps working expiresInSeconds (0, the default: revoked at once; at most a week), then answers 401 invalid_api_key on every replica. Needs manage:api_keys.
         */
        post: operations["roll-api-key"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rate_limit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the rate limit
         * @description What is left of the key's hourly budget, in points ({ limit, remaining, used, reset }), with the rate-limit headers. Any valid key, no scope; it costs nothing and is never refused, also when the budget is spent: ask it when to retry.
         */
        get: operations["get-rate-limit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: string;
            /** @enum {string} */
            code: "invalid_pagination" | "invalid_cursor" | "domain_required" | "forbidden_field" | "validation_failed" | "invalid_id" | "invalid_json" | "invalid_domain" | "too_many_fields" | "invalid_idempotency_key" | "query_too_complex" | "invalid_api_key" | "missing_site_key" | "plan_feature_gated" | "plan_limit_reached" | "insufficient_scope" | "not_found" | "site_not_found" | "method_not_allowed" | "not_acceptable" | "form_archived" | "idempotency_in_progress" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "wp_plugin_fetch_failed" | "rate_limited" | "too_many_streams" | "internal_error" | "phi_key_unavailable" | "overloaded" | "service_unavailable";
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "list-forms": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                domainId?: string;
                archived?: "true" | "false";
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            name: string;
                            type: string;
                            domain: {
                                id: number;
                                domain: string;
                            } | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            submissionCount: number;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "create-form": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    fields: {
                        id?: string;
                        /** @enum {string} */
                        type: "text" | "email" | "phone" | "number" | "textarea" | "select" | "radio" | "checkbox" | "date" | "time" | "url" | "hidden" | "consent";
                        label: string;
                        required?: boolean;
                        options?: string[];
                        placeholder?: string;
                    }[];
                    /** @enum {string} */
                    type?: "standard" | "multi-step";
                    domainId?: number;
                    webhookUrl?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        type: string;
                        domain: {
                            id: number;
                            domain: string;
                        } | null;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        fields: {
                            id: string;
                            type: string;
                            label: string;
                            required?: boolean | null;
                            options?: string[] | null;
                            placeholder?: string | null;
                        }[];
                    };
                };
            };
            /** @description Error: `invalid_json`, `validation_failed`, `domain_required`, `invalid_domain` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_json" | "validation_failed" | "domain_required" | "invalid_domain";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated`, `plan_limit_reached` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated" | "plan_limit_reached";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-form": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        type: string;
                        domain: {
                            id: number;
                            domain: string;
                        } | null;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        fields: {
                            id: string;
                            type: string;
                            label: string;
                            required?: boolean | null;
                            options?: string[] | null;
                            placeholder?: string | null;
                        }[];
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "archive-form": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "update-form": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    fields?: {
                        id?: string;
                        /** @enum {string} */
                        type: "text" | "email" | "phone" | "number" | "textarea" | "select" | "radio" | "checkbox" | "date" | "time" | "url" | "hidden" | "consent";
                        label: string;
                        required?: boolean;
                        options?: string[];
                        placeholder?: string;
                    }[];
                    webhookUrl?: string | null;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        type: string;
                        domain: {
                            id: number;
                            domain: string;
                        } | null;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        fields: {
                            id: string;
                            type: string;
                            label: string;
                            required?: boolean | null;
                            options?: string[] | null;
                            placeholder?: string | null;
                        }[];
                    };
                };
            };
            /** @description Error: `invalid_id`, `invalid_json`, `validation_failed`, `forbidden_field` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_json" | "validation_failed" | "forbidden_field";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated`, `plan_limit_reached` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated" | "plan_limit_reached";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-form-submissions": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                /** @description inclusive lower bound of createdAt (ISO 8601 with offset) */
                createdFrom?: string;
                /** @description exclusive upper bound of createdAt (ISO 8601 with offset); fix it to walk a growing list */
                createdBefore?: string;
                /** @description a cursor from the previous page (`pagination.next`, or the `Link` header): the rows that follow it; not with page */
                after?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Link?: string;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            formId: number;
                            formData: Record<string, unknown>;
                            sourceDomain: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    } | {
                        data: {
                            id: number;
                            formId: number;
                            formData: Record<string, unknown>;
                            sourceDomain: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            limit: number;
                            next: string | null;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id`, `invalid_pagination`, `validation_failed`, `invalid_cursor` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_pagination" | "validation_failed" | "invalid_cursor";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `phi_key_unavailable`, `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "phi_key_unavailable" | "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "ingest-submission": {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description at most 50 fields and 51200 bytes serialized */
                    formData: Record<string, unknown>;
                };
            };
        };
        responses: {
            /** @description Success (see the summary) */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        formId: number;
                        formData: Record<string, unknown>;
                        sourceDomain: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        formId: number;
                        formData: Record<string, unknown>;
                        sourceDomain: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Error: `invalid_id`, `invalid_json`, `validation_failed`, `too_many_fields`, `invalid_idempotency_key` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_json" | "validation_failed" | "too_many_fields" | "invalid_idempotency_key";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `form_archived`, `idempotency_in_progress` */
            409: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "form_archived" | "idempotency_in_progress";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `idempotency_key_reused` */
            422: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `phi_key_unavailable`, `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "phi_key_unavailable" | "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-submission": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        formId: number;
                        formData: Record<string, unknown>;
                        sourceDomain: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `phi_key_unavailable`, `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "phi_key_unavailable" | "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "delete-submission": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-site-verification": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        domain: string;
                        verified: boolean;
                        method: ("dns_txt" | "meta_tag" | "wp_plugin") | null;
                        /** Format: date-time */
                        verifiedAt: string | null;
                        /** Format: date-time */
                        lastCheckedAt: string | null;
                        methods: ("dns_txt" | "meta_tag" | "wp_plugin")[];
                        instructions?: {
                            token: string;
                            dns_txt: {
                                type: string;
                                host: string;
                                value: string;
                            };
                            meta_tag: {
                                url: string;
                                html: string;
                            };
                            wp_plugin: {
                                paths: string[];
                                pluginSlug: string;
                                note: string;
                            };
                        } | null;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `missing_site_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "missing_site_key";
                    };
                };
            };
            /** @description Error: `site_not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "site_not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "attempt-site-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        domain: string;
                        verified: boolean;
                        method: ("dns_txt" | "meta_tag" | "wp_plugin") | null;
                        /** Format: date-time */
                        verifiedAt: string | null;
                        /** Format: date-time */
                        lastCheckedAt: string | null;
                    };
                };
            };
            /** @description Error: `missing_site_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "missing_site_key";
                    };
                };
            };
            /** @description Error: `site_not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "site_not_found";
                    };
                };
            };
            /** @description Error: `wp_plugin_fetch_failed` */
            422: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "wp_plugin_fetch_failed";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-calendar-widgets": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                domainId?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            name: string;
                            domain: {
                                id: number;
                                domain: string;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            bookingCount: number;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-calendar-widget": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        domain: {
                            id: number;
                            domain: string;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        settings: Record<string, unknown>;
                        appearance: Record<string, unknown>;
                        behavior: Record<string, unknown>;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-calendar-widget-bookings": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                status?: "scheduled" | "cancelled" | "no_show" | "completed" | "failed";
                /** @description inclusive lower bound of createdAt (ISO 8601 with offset) */
                createdFrom?: string;
                /** @description exclusive upper bound of createdAt (ISO 8601 with offset); fix it to walk a growing list */
                createdBefore?: string;
                /** @description a cursor from the previous page (`pagination.next`, or the `Link` header): the rows that follow it; not with page */
                after?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Link?: string;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            calendarWidgetId: number;
                            inviteeName: string;
                            inviteeEmail: string;
                            slotIso: string;
                            slotDisplay: string;
                            inviteeTimezone: string;
                            /** @enum {string} */
                            status: "cancelled" | "completed" | "failed" | "no_show" | "scheduled";
                            customFields: Record<string, unknown>;
                            videoCallUrl: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    } | {
                        data: {
                            id: number;
                            calendarWidgetId: number;
                            inviteeName: string;
                            inviteeEmail: string;
                            slotIso: string;
                            slotDisplay: string;
                            inviteeTimezone: string;
                            /** @enum {string} */
                            status: "cancelled" | "completed" | "failed" | "no_show" | "scheduled";
                            customFields: Record<string, unknown>;
                            videoCallUrl: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            limit: number;
                            next: string | null;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id`, `invalid_pagination`, `validation_failed`, `invalid_cursor` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_pagination" | "validation_failed" | "invalid_cursor";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-booking": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        calendarWidgetId: number;
                        inviteeName: string;
                        inviteeEmail: string;
                        slotIso: string;
                        slotDisplay: string;
                        inviteeTimezone: string;
                        /** @enum {string} */
                        status: "cancelled" | "completed" | "failed" | "no_show" | "scheduled";
                        customFields: Record<string, unknown>;
                        videoCallUrl: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-ecommerce-widgets": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                domainId?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            name: string;
                            /** @enum {string} */
                            type: "donation" | "one_time" | "subscription";
                            productName: string;
                            description: string | null;
                            priceCents: number | null;
                            currency: string;
                            /** @enum {string} */
                            fulfilmentType: "digital" | "physical" | "service";
                            imageUrl: string | null;
                            domain: {
                                id: number;
                                domain: string;
                            };
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            updatedAt: string;
                            orderCount: number;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-ecommerce-widget": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string;
                        /** @enum {string} */
                        type: "donation" | "one_time" | "subscription";
                        productName: string;
                        description: string | null;
                        priceCents: number | null;
                        currency: string;
                        /** @enum {string} */
                        fulfilmentType: "digital" | "physical" | "service";
                        imageUrl: string | null;
                        domain: {
                            id: number;
                            domain: string;
                        };
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        updatedAt: string;
                        imageUrls: string[];
                        interval: ("day" | "month" | "week" | "year") | null;
                        trialDays: number | null;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-ecommerce-widget-orders": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                status?: "paid" | "shipped" | "refunded" | "failed";
                /** @description inclusive lower bound of createdAt (ISO 8601 with offset) */
                createdFrom?: string;
                /** @description exclusive upper bound of createdAt (ISO 8601 with offset); fix it to walk a growing list */
                createdBefore?: string;
                /** @description a cursor from the previous page (`pagination.next`, or the `Link` header): the rows that follow it; not with page */
                after?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Link?: string;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            ecommerceWidgetId: number | null;
                            collectionId: number | null;
                            customerName: string | null;
                            customerEmail: string;
                            customerPhone: string | null;
                            amountCents: number;
                            currency: string;
                            /** @enum {string} */
                            status: "failed" | "paid" | "refunded" | "shipped";
                            shippingAddress: Record<string, unknown> | null;
                            trackingNumber: string | null;
                            trackingCarrier: string | null;
                            /** Format: date-time */
                            shippedAt: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    } | {
                        data: {
                            id: number;
                            ecommerceWidgetId: number | null;
                            collectionId: number | null;
                            customerName: string | null;
                            customerEmail: string;
                            customerPhone: string | null;
                            amountCents: number;
                            currency: string;
                            /** @enum {string} */
                            status: "failed" | "paid" | "refunded" | "shipped";
                            shippingAddress: Record<string, unknown> | null;
                            trackingNumber: string | null;
                            trackingCarrier: string | null;
                            /** Format: date-time */
                            shippedAt: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            limit: number;
                            next: string | null;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id`, `invalid_pagination`, `validation_failed`, `invalid_cursor` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_pagination" | "validation_failed" | "invalid_cursor";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-order": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        ecommerceWidgetId: number | null;
                        collectionId: number | null;
                        customerName: string | null;
                        customerEmail: string;
                        customerPhone: string | null;
                        amountCents: number;
                        currency: string;
                        /** @enum {string} */
                        status: "failed" | "paid" | "refunded" | "shipped";
                        shippingAddress: Record<string, unknown> | null;
                        trackingNumber: string | null;
                        trackingCarrier: string | null;
                        /** Format: date-time */
                        shippedAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-site-catalog": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                kind?: "form" | "calendar" | "ecommerce";
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            kind: "calendar" | "ecommerce" | "form";
                            id: number;
                            name: string;
                            type: string | null;
                            /** Format: date-time */
                            updatedAt: string;
                            embedHtml: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination" | "validation_failed";
                    };
                };
            };
            /** @description Error: `missing_site_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "missing_site_key";
                    };
                };
            };
            /** @description Error: `site_not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "site_not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-webhooks": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            url: string;
                            event: string;
                            formId: number | null;
                            active: boolean;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "create-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description absolute https URL */
                    url: string;
                    /** @enum {string} */
                    event: "submission.created" | "submission.deleted" | "form.created" | "form.updated" | "form.archived";
                    formId?: number | null;
                };
            };
        };
        responses: {
            /** @description Success (see the summary) */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        url: string;
                        event: string;
                        formId: number | null;
                        active: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        secret: string | null;
                    };
                };
            };
            /** @description Success */
            201: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        url: string;
                        event: string;
                        formId: number | null;
                        active: boolean;
                        /** Format: date-time */
                        createdAt: string;
                        secret: string | null;
                    };
                };
            };
            /** @description Error: `invalid_json`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_json" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-webhook": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        url: string;
                        event: string;
                        formId: number | null;
                        active: boolean;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "delete-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "update-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description absolute https URL on port 443 */
                    url?: string;
                    /** @description true turns a deactivated subscription back on */
                    active?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        url: string;
                        event: string;
                        formId: number | null;
                        active: boolean;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Error: `invalid_id`, `invalid_json`, `validation_failed`, `forbidden_field` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_json" | "validation_failed" | "forbidden_field";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-webhook-deliveries": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            webhookId: number | null;
                            eventId: string;
                            eventType: string;
                            /** @enum {string} */
                            status: "failed" | "pending" | "succeeded";
                            attempts: number;
                            /** Format: date-time */
                            lastAttemptAt: string | null;
                            lastStatusCode: number | null;
                            lastError: string | null;
                            /** Format: date-time */
                            nextAttemptAt: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id`, `invalid_pagination`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_pagination" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-webhook-delivery": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        webhookId: number | null;
                        eventId: string;
                        eventType: string;
                        /** @enum {string} */
                        status: "failed" | "pending" | "succeeded";
                        attempts: number;
                        /** Format: date-time */
                        lastAttemptAt: string | null;
                        lastStatusCode: number | null;
                        lastError: string | null;
                        /** Format: date-time */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                        payload: Record<string, unknown> | null;
                        attemptLog: {
                            at: string;
                            statusCode: number | null;
                            error: string | null;
                            durationMs: number;
                        }[] | null;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "redeliver-webhook-delivery": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        webhookId: number | null;
                        eventId: string;
                        eventType: string;
                        /** @enum {string} */
                        status: "failed" | "pending" | "succeeded";
                        attempts: number;
                        /** Format: date-time */
                        lastAttemptAt: string | null;
                        lastStatusCode: number | null;
                        lastError: string | null;
                        /** Format: date-time */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "replay-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description inclusive
                     */
                    createdFrom: string;
                    /**
                     * Format: date-time
                     * @description exclusive; at most 30 days after createdFrom
                     */
                    createdBefore: string;
                    /**
                     * @description only failed deliveries
                     * @constant
                     */
                    status?: "failed";
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        replayed: number;
                    };
                };
            };
            /** @description Error: `invalid_id`, `invalid_json`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_json" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "ping-webhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        webhookId: number | null;
                        eventId: string;
                        eventType: string;
                        /** @enum {string} */
                        status: "failed" | "pending" | "succeeded";
                        attempts: number;
                        /** Format: date-time */
                        lastAttemptAt: string | null;
                        lastStatusCode: number | null;
                        lastError: string | null;
                        /** Format: date-time */
                        nextAttemptAt: string | null;
                        /** Format: date-time */
                        createdAt: string;
                    };
                };
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "stream-events": {
        parameters: {
            query?: {
                type?: "submission.created" | "submission.deleted" | "form.created" | "form.updated" | "form.archived";
                /** @description as the Last-Event-ID header, which wins when both are sent (an EventSource reconnecting sends the header) */
                lastEventId?: string;
            };
            header?: {
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Error: `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `rate_limited`, `too_many_streams` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited" | "too_many_streams";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-events": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
                type?: "submission.created" | "submission.deleted" | "form.created" | "form.updated" | "form.archived";
                /** @description inclusive */
                createdFrom?: string;
                /** @description exclusive */
                createdBefore?: string;
                /** @description a cursor from the previous page (`pagination.next`, or the `Link` header): the rows that follow it; not with page */
                after?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Link?: string;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            type: string;
                            createdAt: string;
                            data: Record<string, unknown>;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    } | {
                        data: {
                            id: string;
                            type: string;
                            createdAt: string;
                            data: Record<string, unknown>;
                        }[];
                        pagination: {
                            limit: number;
                            next: string | null;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination`, `validation_failed`, `invalid_cursor` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination" | "validation_failed" | "invalid_cursor";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-event": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        type: string;
                        createdAt: string;
                        data: Record<string, unknown>;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "create-erasure-request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody: {
            content: {
                "application/json": {
                    /** @description the data subject’s address, matched trimmed and case-insensitively */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        /** @enum {string} */
                        status: "done" | "pending" | "running";
                        submissionsErased: number;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        completedAt: string | null;
                    };
                };
            };
            /** @description Error: `invalid_json`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_json" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-erasure-request": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        /** @enum {string} */
                        status: "done" | "pending" | "running";
                        submissionsErased: number;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        completedAt: string | null;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "export-form-submissions": {
        parameters: {
            query?: {
                /** @description default ndjson */
                format?: "ndjson" | "csv";
                /** @description inclusive lower bound of createdAt (ISO 8601 with offset) */
                createdFrom?: string;
                /** @description exclusive upper bound of createdAt (ISO 8601 with offset); fix it to walk a growing list */
                createdBefore?: string;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    "Content-Disposition"?: string;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "list-api-keys": {
        parameters: {
            query?: {
                page?: number;
                /** @description page size; values above 100 are clamped to 100 */
                limit?: number;
            };
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: number;
                            name: string | null;
                            scopes: string[];
                            lastFour: string;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string | null;
                            /** Format: date-time */
                            revokedAt: string | null;
                            /** Format: date-time */
                            lastUsedAt: string | null;
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            total: number;
                            pages: number;
                        };
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_pagination` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_pagination";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "create-api-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody?: {
            content: {
                "application/json": {
                    name?: string | null;
                    /** @description defaults to every read: scope; only scopes the calling key holds */
                    scopes?: ("read:forms" | "write:forms" | "read:submissions" | "write:submissions" | "read:calendars" | "read:bookings" | "read:ecommerce" | "read:orders" | "manage:api_keys")[];
                    /** @description in the future; none by default */
                    expiresAt?: string | null;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string | null;
                        key: string;
                        scopes: string[];
                        lastFour: string;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        expiresAt: string | null;
                    };
                };
            };
            /** @description Error: `invalid_json`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_json" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-api-key": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string | null;
                        scopes: string[];
                        lastFour: string;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        expiresAt: string | null;
                        /** Format: date-time */
                        revokedAt: string | null;
                        /** Format: date-time */
                        lastUsedAt: string | null;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "revoke-api-key": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_id` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "roll-api-key": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description A JSON object in UTF-8, without a Content-Encoding (else 400 invalid_json); objects and arrays nest at most 32 levels deep, counting the body as 1, no string or key holds a NUL character or an unpaired surrogate, and no number exceeds a double (else 400 validation_failed naming the top-level field) */
        requestBody?: {
            content: {
                "application/json": {
                    /** @description how long the rolled key keeps working; 0 (the default) revokes it at once */
                    expiresInSeconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: number;
                        name: string | null;
                        key: string;
                        scopes: string[];
                        lastFour: string;
                        /** Format: date-time */
                        createdAt: string;
                        /** Format: date-time */
                        expiresAt: string | null;
                    };
                };
            };
            /** @description Error: `invalid_id`, `invalid_json`, `validation_failed` */
            400: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_id" | "invalid_json" | "validation_failed";
                    };
                };
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `insufficient_scope` */
            403: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "insufficient_scope";
                    };
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
    "get-rate-limit": {
        parameters: {
            query?: never;
            header?: {
                /** @description ETags of a copy the client holds (comma-separated, or *): a match answers 304 and uses no budget */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        limit: number;
                        remaining: number;
                        used: number;
                        reset: number;
                    };
                };
            };
            /** @description Not modified: If-None-Match matched the current ETag. No body; the same ETag and the rate-limit headers; no budget used */
            304: {
                headers: {
                    ETag?: string;
                    "Cache-Control"?: string;
                    Vary?: string;
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error: `invalid_api_key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "invalid_api_key";
                    };
                };
            };
            /** @description Error: `plan_feature_gated` */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "plan_feature_gated";
                    };
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description Error: `overloaded`, `service_unavailable` */
            503: {
                headers: {
                    /** @description the budget of the current one-hour window */
                    "X-RateLimit-Limit"?: number;
                    /** @description requests left in the window after this one */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Unix time (seconds) when the window ends */
                    "X-RateLimit-Reset"?: number;
                    /** @description seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        /** @enum {string} */
                        code?: "overloaded" | "service_unavailable";
                    };
                };
            };
        };
    };
}
