// @vitest-environment happy-dom
import { act, renderHook } from "@testing-library/react";
import { onlineManager } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { useCall } from "./use-call.ts";

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => onlineManager.setOnline(true));

describe("useCall", () => {
  it("is pending while the call runs and resolves only after onSuccess has finished", async () => {
    const answer = deferred<string>();
    const after = deferred<void>();
    const order: string[] = [];
    const { result } = renderHook(() =>
      useCall((v: number) => answer.promise.then((a) => `${a}${v}`), async (a) => {
        order.push(`onSuccess ${a}`);
        await after.promise;
        order.push("onSuccess done");
      })
    );
    expect(result.current.isPending).toBe(false);
    let done!: Promise<string>;
    act(() => {
      done = result.current.mutateAsync(7);
    });
    expect(result.current.isPending).toBe(true);
    void done.then((a) => order.push(`resolved ${a}`));
    await act(() => Promise.resolve(answer.resolve("ok")));
    expect(order).toEqual(["onSuccess ok7"]);
    await act(() => Promise.resolve(after.resolve()));
    expect(order).toEqual(["onSuccess ok7", "onSuccess done", "resolved ok7"]);
    expect(result.current.isPending).toBe(false);
  });

  it("mutateAsync rejects with the call's error, skips onSuccess; mutate hands errors to onError", async () => {
    const calls: string[] = [];
    const { result } = renderHook(() =>
      useCall((v: string) => (v === "bad" ? Promise.reject(new Error("refused")) : Promise.resolve(v)), () => {
        calls.push("onSuccess");
      })
    );
    await act(async () => {
      await expect(result.current.mutateAsync("bad")).rejects.toThrow("refused");
    });
    expect(calls).toEqual([]);
    await act(async () => {
      await new Promise<void>((done) =>
        result.current.mutate("bad", { onError: (e) => (calls.push(`onError ${(e as Error).message}`), done()) })
      );
      await new Promise<void>((done) =>
        result.current.mutate("good", { onSuccess: (a) => (calls.push(`then ${a}`), done()) })
      );
    });
    expect(calls).toEqual(["onError refused", "onSuccess", "then good"]);
    expect(result.current.isPending).toBe(false);
  });

  it("offline, waits (pending) and calls once the browser is online again, as useMutation does", async () => {
    const sent: string[] = [];
    const { result } = renderHook(() => useCall((v: string) => (sent.push(v), Promise.resolve(v))));
    onlineManager.setOnline(false);
    let done!: Promise<string>;
    act(() => {
      done = result.current.mutateAsync("x");
    });
    await act(async () => await Promise.resolve());
    expect(sent).toEqual([]);
    expect(result.current.isPending).toBe(true);
    await act(() => Promise.resolve(onlineManager.setOnline(true)));
    expect(await done).toBe("x");
    expect(sent).toEqual(["x"]);
  });
});
