/**
 * A Worker that asks `/api/health` every `everyMs` and posts [asked at (performance.timeOrigin-based
 * epoch ms), ms to answer] for each answer: on its own thread, so that the bench's own uploading
 * (hundreds of MB pumped through fetch) cannot delay the asking or the reading of the answers.
 */
/// <reference lib="deno.worker" />
let probing = false;
self.onmessage = async (e: MessageEvent<{ url: string; everyMs: number } | "stop">) => {
  if (e.data === "stop") {
    probing = false;
    return;
  }
  const { url, everyMs } = e.data;
  probing = true;
  while (probing) {
    const asked = performance.timeOrigin + performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.body?.cancel();
    self.postMessage({ asked, ms: performance.timeOrigin + performance.now() - asked, ok: res.ok });
    await new Promise((r) => setTimeout(r, everyMs));
  }
  self.postMessage("stopped");
};
