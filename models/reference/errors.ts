/**
 * A request a reference role cannot serve because of its content (e.g. no decodable screenshot).
 * The reference server answers it with HTTP 400 naming `param`, like any other invalid request.
 */
export class RoleInputError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
    this.name = 'RoleInputError';
  }
}
