/**
 * Asks the sign-in feature to open its login dialog (spec 1 §2: any action of an anonymous visitor
 * on the upload page raises a need-authentication event). The dialog listens for this window event.
 */
export const NEED_AUTH_EVENT = "need-auth";

export function requestSignIn() {
  globalThis.dispatchEvent(new Event(NEED_AUTH_EVENT));
}
