// A multipart upload with its progress: fetch cannot report how much of a request's body has been
// sent, XMLHttpRequest can. Same origin, so the session cookie goes with it; the CSRF header is added
// as the typed client adds it to every state-changing request; a failure becomes ApiError with the
// server's message, and a 401 ends the session as it does for every other request.
import { csrfHeaders, reportSessionEnded } from './client';
import { ApiError, errorOf, UNREACHABLE } from './errors';

export interface UploadProgress {
  /** Bytes of the body sent so far. */
  loaded: number;
  /** The body's size; 0 while the browser does not know it. */
  total: number;
}

/** POSTs the form to `url`; resolves with the answer's parsed JSON body, rejects with ApiError. */
export function postWithProgress(url: string, form: FormData, onProgress: (progress: UploadProgress) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.responseType = 'json';
    for (const [name, value] of Object.entries(csrfHeaders())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    // The whole body is sent: what follows is the server reading it, before it answers.
    request.upload.onload = (event) => onProgress({ loaded: event.loaded, total: event.loaded });
    request.onload = () => {
      const body: unknown = request.response;
      if (request.status >= 200 && request.status < 300) return resolve(body);
      if (request.status === 401) reportSessionEnded();
      reject(errorOf(body, request));
    };
    request.onerror = () => reject(new ApiError(UNREACHABLE, 0));
    request.send(form);
  });
}
