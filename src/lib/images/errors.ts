/** Why an image could not be made, with the HTTP status the route answers (a 500: our bug). */
export class ImageError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 422 | 500 | 502 | 503 | 504;
  /** A 503's wait in seconds when the failure said it (else the default `RETRY_AFTER_SECONDS`). */
  readonly retryAfter: number | undefined;

  constructor(status: ImageError['status'], message: string, retryAfter?: number) {
    super(message);
    this.name = 'ImageError';
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** Image addresses take no query: an edge cache keys on it, so each would be a second copy. */
export const queryRefused = (): ImageError =>
  new ImageError(404, 'No picture has this address: pictures take no query string.');

/** Nor an escape: the same picture under another spelling of its address. */
export const spellingRefused = (): ImageError =>
  new ImageError(
    404,
    'No picture has this address: it is spelled otherwise than the site writes it.',
  );
