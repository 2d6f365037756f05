-- Wakes the outbox relay (src/worker/jobs/event-relay.ts) as soon as an event is recorded, instead of its next
-- poll: one NOTIFY per inserting statement, sent when its transaction commits (none when it rolls back).
CREATE FUNCTION "outbox_event_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_event', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "OutboxEvent_notify" AFTER INSERT ON "OutboxEvent" FOR EACH STATEMENT EXECUTE FUNCTION "outbox_event_notify"();
