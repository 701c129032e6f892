// The MCP SDK's client side, loaded at the first session (a listing or a call of an MCP tool), so a
// start does not load the SDK and zod (docs/performance.md "Suite start"). Once loaded it is kept, and
// `loadedClientSdk` gives it synchronously: an error of the SDK can only exist after it was loaded.
async function importClientSdk() {
  const [client, sse, stdio, streamable, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    StreamableHTTPError: streamable.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
  };
}

export type ClientSdk = Awaited<ReturnType<typeof importClientSdk>>;

let loading: Promise<ClientSdk> | undefined;
let loaded: ClientSdk | undefined;

export function loadClientSdk(): Promise<ClientSdk> {
  loading ??= importClientSdk().then(
    (sdk) => (loaded = sdk),
    (error: unknown) => {
      loading = undefined; // a failed load is tried again at the next session
      throw error;
    },
  );
  return loading;
}

/** The SDK if a session already loaded it, else undefined. */
export function loadedClientSdk(): ClientSdk | undefined {
  return loaded;
}
