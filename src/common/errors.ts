/** The one place that turns a thrown value into text or an `Error`: anything may be thrown, not only `Error`s. */

/** The message of a thrown value: an `Error`'s own message, anything else as `String()` gives it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A thrown value as an `Error`, keeping an `Error` as it is (with its type, code and cause). */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * An input box's `validateInput` from the parser the answer goes through afterwards: the parser's own words while
 * it refuses the text, nothing once it accepts it. The check as typed and the parse after Enter cannot disagree.
 */
export function validatedBy(parse: (text: string) => unknown): (text: string) => string | undefined {
  return (text) => {
    try {
      parse(text);
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  };
}
