/** The one place that turns a thrown value into text or an `Error`: anything may be thrown, not only `Error`s. */

/** The message of a thrown value: an `Error`'s own message, anything else as `String()` gives it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A thrown value as an `Error`, keeping an `Error` as it is (with its type, code and cause). */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
