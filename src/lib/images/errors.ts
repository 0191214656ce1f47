/** Why an image could not be made, with the HTTP status the route answers (never a 500). */
export class ImageError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 422 | 502 | 503 | 504;

  constructor(status: ImageError['status'], message: string) {
    super(message);
    this.name = 'ImageError';
    this.status = status;
  }
}

/** Image addresses take no query: an edge cache keys on it, so each would be a second copy. */
export const queryRefused = (): ImageError =>
  new ImageError(404, 'No picture has this address: pictures take no query string.');
