// The settings of an API tool: one HTTP operation. The model gives the arguments named by
// `parameters` (a JSON Schema of an object); `locations` says where each one goes in the request.
// Checked beyond this schema when saved (src/tools/api/config-check.ts): the URL, the placeholders,
// the parameters as a JSON Schema.
import { Type, type Static } from '@sinclair/typebox';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const PARAMETER_PLACES = ['path', 'query', 'header', 'cookie', 'body'] as const;
export type ParameterPlace = (typeof PARAMETER_PLACES)[number];

/** A header name as HTTP allows it (a token). */
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$";

const Place = Type.Union(
  PARAMETER_PLACES.map((place) => Type.Literal(place)),
  { description: 'path, query, header, cookie or body' },
);

const Location = Type.Union(
  [
    Place,
    Type.Object(
      {
        in: Place,
        name: Type.String({ minLength: 1, maxLength: 256, description: 'The name on the wire (query key, header, cookie, body key), when it differs from the parameter’s' }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Where the parameter goes: a place, or { in, name } when its name on the wire differs' },
);

export const ApiAuth = Type.Union(
  [
    Type.Object({ type: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object(
      {
        type: Type.Literal('api_key'),
        in: Type.Union([Type.Literal('header'), Type.Literal('query')], { description: 'Sent as a header or a query parameter' }),
        name: Type.String({ minLength: 1, maxLength: 128, pattern: HEADER_NAME, description: 'The header or query parameter name, e.g. X-Api-Key or appid' }),
      },
      { additionalProperties: false },
    ),
    Type.Object({ type: Type.Literal('bearer') }, { additionalProperties: false, description: 'Authorization: Bearer <secret>' }),
    Type.Object(
      {
        type: Type.Literal('basic'),
        username: Type.String({ maxLength: 256, description: 'The user name; the password is the tool’s secret' }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'How the call authenticates; the key, token or password is the tool’s write-only secret' },
);
export type ApiAuth = Static<typeof ApiAuth>;

export const ApiToolConfig = Type.Object(
  {
    method: Type.Union(
      HTTP_METHODS.map((method) => Type.Literal(method)),
      { description: 'The HTTP method' },
    ),
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'An http(s) URL template: {name} in the path is replaced by that parameter, encoded (https://api.example.com/v1/items/{id})',
    }),
    parameters: Type.Record(Type.String(), Type.Unknown(), {
      description: 'JSON Schema of an object: the arguments the model gives ({ type: "object", properties, required })',
    }),
    locations: Type.Optional(
      Type.Record(Type.String(), Location, {
        description:
          'Where each parameter goes. Unlisted: path when the URL names it, body when the body template names it, else query for GET and DELETE and body for the others',
      }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: HEADER_NAME }), Type.String({ maxLength: 4000 }), {
        description: 'Headers sent with every call (put secrets in auth, not here)',
      }),
    ),
    body: Type.Optional(
      Type.Unknown({
        description:
          'A JSON body template: a string that is exactly "{{name}}" becomes that parameter’s value (any JSON type; left out when absent), "{{name}}" inside other text is replaced by its text. Without a template, body parameters are sent as one JSON object',
      }),
    ),
    auth: Type.Optional(ApiAuth),
  },
  { additionalProperties: false },
);
export type ApiToolConfig = Static<typeof ApiToolConfig>;

/** The place and wire name of a location as written (shorthand or object). */
export function placeOf(location: ParameterPlace | { in: ParameterPlace; name: string }, parameter: string): { in: ParameterPlace; name: string } {
  return typeof location === 'string' ? { in: location, name: parameter } : location;
}
