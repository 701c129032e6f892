// The ask's streams are written by the server's one Server-Sent Events writer; this name stays for
// the doors that import it from here.
export { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';
