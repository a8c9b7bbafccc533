import { onlineManager } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";

/** What the artist's pages use of a write call: TanStack Query's `useMutation` names. */
export interface Call<V, R> {
  /** Resolves with the answer once `onSuccess` has run; rejects with the call's error. */
  mutateAsync(value: V): Promise<R>;
  /** The same, for a handler: errors go to `onError` (else nowhere), the answer to `onSuccess`. */
  mutate(value: V, then?: { onSuccess?: (answer: R) => void; onError?: (err: unknown) => void }): void;
  /** A call is under way. */
  isPending: boolean;
}

/**
 * A write call of the artist's pages (decision 0430): `mutateAsync`, `mutate` and `isPending` as
 * `useMutation` gives them (its `onSuccess` awaited before the call resolves, no retry, held while
 * TanStack Query's online manager says offline), without `useMutation`'s observer, which only the
 * staff pages now load.
 */
export function useCall<V, R>(call: (value: V) => Promise<R>, onSuccess?: (answer: R) => unknown): Call<V, R> {
  const [pending, setPending] = useState(0);
  const latest = useRef({ call, onSuccess });
  latest.current = { call, onSuccess };
  const mutateAsync = useCallback(async (value: V) => {
    setPending((n) => n + 1);
    try {
      await whenOnline();
      const answer = await latest.current.call(value);
      await latest.current.onSuccess?.(answer);
      return answer;
    } finally {
      setPending((n) => n - 1);
    }
  }, []);
  const mutate = useCallback<Call<V, R>["mutate"]>((value, then) => {
    mutateAsync(value).then((answer) => then?.onSuccess?.(answer), (err) => then?.onError?.(err));
  }, [mutateAsync]);
  return { mutateAsync, mutate, isPending: pending > 0 };
}

/** Resolves at once online; offline, when the browser is back online (useMutation's `networkMode: "online"`). */
function whenOnline(): Promise<void> | void {
  if (onlineManager.isOnline()) return;
  return new Promise((resolve) => {
    const stop = onlineManager.subscribe((online) => {
      if (!online) return;
      stop();
      resolve();
    });
  });
}
