// How the OpenAPI document describes a text/event-stream answer (docs/api.md, "Event streams").
// OpenAPI 3.1 has no schema for the items of a stream (3.2's itemSchema), so the media type's schema
// is that of ONE event as a client decodes it: `event` its name ("message" where the server writes
// none, as EventSource says), `id` where the server writes one, and `data` parsed from JSON (data that
// is not JSON, OpenAI's [DONE], stays a string). A stream with several event names is a oneOf of one
// object per name with a discriminator on `event`, which client generators turn into a
// discriminated union. Documentation only: the streams are written by server-sent-events.ts, and
// test/event-stream-contract.test.ts checks what they write against these schemas.
import { Type, type Static, type TLiteral, type TObject, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

const EventId = Type.String({ pattern: '^[0-9]+$', description: 'The event’s id: increasing within the stream' });

/** One event of a stream, named `title` in the document: its name, its id when it has one, its data. */
export function StreamEvent<N extends string, D extends TSchema>(
  title: string,
  name: N,
  data: D,
  options: { id: true; description: string },
): TObject<{ event: TLiteral<N>; id: TString; data: D }>;
export function StreamEvent<N extends string, D extends TSchema>(
  title: string,
  name: N,
  data: D,
  options: { id: false; description: string },
): TObject<{ event: TLiteral<N>; data: D }>;
export function StreamEvent(title: string, name: string, data: TSchema, options: { id: boolean; description: string }): TObject {
  const properties = { event: Type.Literal(name), ...(options.id ? { id: EventId } : {}), data };
  return Type.Object(properties, { title, description: options.description });
}

/**
 * The events of a stream with several event names: one of them, told apart by `event`. The mapping
 * names each event's component, which finishDocument makes of the events' titles.
 */
export function StreamEventUnion<E extends TObject[]>(title: string, events: [...E], description: string): TUnsafe<Static<E[number]>> {
  const mapping: Record<string, string> = {};
  // Each is a StreamEvent, whose `event` is a literal: its const is the event's name.
  for (const event of events) mapping[(event.properties.event as TLiteral<string>).const] = `#/components/schemas/${event.title}`;
  return Type.Unsafe<Static<E[number]>>({ title, description, oneOf: events, discriminator: { propertyName: 'event', mapping } });
}

/**
 * The response of a text/event-stream answer for x-document: the schema of one decoded event, a few
 * decoded events as examples, and the stream as it is written in the response's description.
 */
export function eventStreamResponse<S extends TSchema>(description: string, schema: S, wire: string, examples: Record<string, Static<S>>) {
  return {
    description: `${description}\n\nOn the wire:\n\n\`\`\`text\n${wire}\`\`\``,
    content: {
      'text/event-stream': {
        schema,
        examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])),
      },
    },
  };
}
