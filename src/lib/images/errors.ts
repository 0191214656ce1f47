/** Why an image could not be made, with the HTTP status the route answers (never a 500). */
export class ImageError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 422 | 502 | 503 | 504;

  constructor(status: ImageError['status'], message: string) {
    super(message);
    this.name = 'ImageError';
    this.status = status;
  }
}
