/**
 * Test helpers for the staff APIs (admin now, moderator later): a test app with an admin, a
 * moderator, a plain user and a banned user signed in, a JSON call helper, the naughty strings and
 * the MP3 fixtures.
 */
import type { User } from "../../db/schema.ts";
import { createTestApp, type TestApp, type TestAppOptions } from "./create-test-app.ts";
import { createTrack, createUser, signIn } from "./factories.ts";

const FIXTURES = new URL("../../test/fixtures/", import.meta.url);

export const naughtyStrings: string[] = JSON.parse(
  Deno.readTextFileSync(new URL("naughty/blns.json", FIXTURES)),
);

export const AUDIO = {
  amen: "Test Artist - Amen Study.mp3",
  low: "Low Rate - 128 kbps.mp3",
  mono: "Mono Artist - 48k Mono.mp3",
} as const;

export function audioBytes(name: string): Uint8Array {
  return Deno.readFileSync(new URL(`audio/${name}`, FIXTURES));
}

export type Headers = Record<string, string>;

export interface StaffFixture {
  t: TestApp;
  admin: User;
  moderator: User;
  plain: User;
  as: { admin: Headers; moderator: Headers; plain: Headers; anonymous: Headers };
  call(method: string, path: string, opts?: { headers?: Headers; json?: unknown; body?: BodyInit }): Promise<
    { status: number; body: Record<string, unknown> & { success?: boolean; error?: string }; res: Response }
  >;
  /** A track with a real MP3 in private storage. */
  trackWithFile(fixture: string, values?: Parameters<typeof createTrack>[1]): ReturnType<typeof createTrack>;
  close(): Promise<void>;
}

export async function staffFixture(
  opts: TestAppOptions & { moderatorCategories?: string } = {},
): Promise<StaffFixture> {
  const t = await createTestApp(opts);
  const db = t.ctx.db;
  const admin = await createUser(db, { is_admin: true, username: `admin-${crypto.randomUUID().slice(0, 8)}` });
  const moderator = await createUser(db, {
    is_moderator: true,
    moderator_categories: opts.moderatorCategories ?? "label_koster",
  });
  const plain = await createUser(db);
  const as = {
    admin: (await signIn(t.ctx, admin)).headers,
    moderator: (await signIn(t.ctx, moderator)).headers,
    plain: (await signIn(t.ctx, plain)).headers,
    anonymous: {},
  };
  return {
    t,
    admin,
    moderator,
    plain,
    as,
    async call(method, path, o = {}) {
      const headers: Headers = { ...(o.headers ?? as.admin) };
      let body = o.body;
      if (o.json !== undefined) {
        headers["Content-Type"] = "application/json";
        body = JSON.stringify(o.json);
      }
      const res = await t.app.request(path, { method, headers, body });
      const text = await res.clone().text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch { /* not JSON: a file */ }
      return { status: res.status, body: parsed, res };
    },
    async trackWithFile(fixture, values = {}) {
      const key = `tracks/${crypto.randomUUID()}.mp3`;
      const bytes = audioBytes(fixture);
      await t.ctx.storage.write(key, ReadableStream.from([bytes]));
      return await createTrack(db, { filename: fixture, storage_key: key, size: bytes.length, ...values });
    },
    close: () => t.close(),
  };
}
