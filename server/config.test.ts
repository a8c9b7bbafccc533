import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseConfig, resolveJwtSecret } from "./config.ts";

const SECRET = "a-production-secret-that-is-long-enough-0123";

function errorOf(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
}

describe("parseConfig", () => {
  it("needs no configuration: embedded defaults", () => {
    const c = parseConfig({});
    expect(c.port).toBe(8000);
    expect(c.publicUrl).toBe("http://localhost:8000");
    expect(c.dataDir).toBe("data");
    expect(c.staticDir).toBe("static");
    expect(c.clientDistDir).toBe("client/dist");
    expect(c.databaseUrl).toBe("file:data/app.db");
    expect(c.upstash).toBeUndefined();
    expect(c.jwtSecret).toBeUndefined();
    expect(c.production).toBe(false);
    expect(c.maintenance).toBe(false);
    expect(c.logLevel).toBe("info");
    expect(c.vk).toBeUndefined();
    expect(c.telegram).toBeUndefined();
    expect(c.accessTokenTtlS).toBeGreaterThan(0);
    expect(c.refreshTokenTtlS).toBeGreaterThan(c.accessTokenTtlS);
    expect(c.trustedProxyHops).toBe(0);
    expect(c.maxUploadsPerHour).toBe(60);
  });

  it("builds the client at start unless CLIENT_PREBUILT says it came with the deploy", () => {
    expect(parseConfig({}).clientPrebuilt).toBe(false);
    expect(parseConfig({ CLIENT_PREBUILT: "1" }).clientPrebuilt).toBe(true);
    expect(parseConfig({ CLIENT_PREBUILT: "true" }).clientPrebuilt).toBe(true);
    expect(parseConfig({ CLIENT_PREBUILT: "0" }).clientPrebuilt).toBe(false);
    expect(errorOf({ CLIENT_PREBUILT: "yes" })).toContain("CLIENT_PREBUILT");
  });

  it("reads TRUSTED_PROXY_HOPS as a small whole number", () => {
    expect(parseConfig({ TRUSTED_PROXY_HOPS: "2" }).trustedProxyHops).toBe(2);
    expect(parseConfig({ TRUSTED_PROXY_HOPS: "0" }).trustedProxyHops).toBe(0);
    expect(errorOf({ TRUSTED_PROXY_HOPS: "yes" })).toContain("TRUSTED_PROXY_HOPS");
    expect(errorOf({ TRUSTED_PROXY_HOPS: "-1" })).toContain("TRUSTED_PROXY_HOPS");
    expect(errorOf({ TRUSTED_PROXY_HOPS: "50" })).toContain("TRUSTED_PROXY_HOPS");
  });

  it("derives PUBLIC_URL and the database file from PORT and DATA_DIR", () => {
    const c = parseConfig({ PORT: "9123", DATA_DIR: "/tmp/x/" });
    expect(c.publicUrl).toBe("http://localhost:9123");
    expect(c.dataDir).toBe("/tmp/x");
    expect(c.databaseUrl).toBe("file:/tmp/x/app.db");
  });

  it("keeps given values and trims a trailing slash from PUBLIC_URL", () => {
    const c = parseConfig({
      PUBLIC_URL: "https://demo.example.ru/",
      DATABASE_URL: "libsql://db-user.turso.io",
      DATABASE_AUTH_TOKEN: "tok",
      UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "rest-token",
      MAINTENANCE_MODE: "true",
      LOG_LEVEL: "warn",
    });
    expect(c.publicUrl).toBe("https://demo.example.ru");
    expect(c.databaseUrl).toBe("libsql://db-user.turso.io");
    expect(c.databaseAuthToken).toBe("tok");
    expect(c.upstash).toEqual({ url: "https://eu1.upstash.io", token: "rest-token" });
    expect(c.maintenance).toBe(true);
    expect(c.logLevel).toBe("warn");
  });

  it("configures sign-in providers only when their credentials are given", () => {
    const c = parseConfig({ VK_CLIENT_ID: "5123", TELEGRAM_BOT_TOKEN: "123456:ABC-def_1" });
    expect(c.vk).toEqual({
      clientId: "5123",
      redirectUri: "http://localhost:8000/login",
      baseUrl: "https://id.vk.com",
    });
    expect(c.telegram?.botId).toBe("123456");
    expect(c.telegram?.oauthUrl).toBe("https://oauth.telegram.org");
    expect(c.telegram?.botApiUrl).toBe("https://api.telegram.org");
  });

  it("takes the Bot API address from TELEGRAM_BOT_API_URL, without a trailing slash", () => {
    const c = parseConfig({ TELEGRAM_BOT_TOKEN: "123456:ABC-def_1", TELEGRAM_BOT_API_URL: "http://127.0.0.1:9000/" });
    expect(c.telegram?.botApiUrl).toBe("http://127.0.0.1:9000");
  });

  it.each([
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "-1" }, "PORT"],
    [{ DATABASE_URL: "ftp://x" }, "DATABASE_URL"],
    [{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
    [{ MAINTENANCE_MODE: "yes" }, "MAINTENANCE_MODE"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ JWT_SECRET: "short" }, "JWT_SECRET"],
    [{ UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io" }, "UPSTASH_REDIS_REST_TOKEN"],
    [{ TELEGRAM_BOT_TOKEN: "nonsense" }, "TELEGRAM_BOT_TOKEN"],
    [{ TELEGRAM_BOT_API_URL: "not a url" }, "TELEGRAM_BOT_API_URL"],
    [{ MAX_UPLOAD_FILE_MB: "0" }, "MAX_UPLOAD_FILE_MB"],
    [{ MAX_UPLOADS_PER_HOUR: "0" }, "MAX_UPLOADS_PER_HOUR"],
    [{ MAX_UPLOADS_PER_HOUR: "many" }, "MAX_UPLOADS_PER_HOUR"],
  ])("a bad value stops start-up naming the variable: %j", (env, name) => {
    expect(errorOf(env)).toContain(name);
  });

  it("names every bad variable at once", () => {
    const message = errorOf({ PORT: "abc", DATABASE_URL: "ftp://x" });
    expect(message).toContain("PORT");
    expect(message).toContain("DATABASE_URL");
  });

  it("requires JWT_SECRET in production", () => {
    expect(errorOf({ DENO_ENV: "production" })).toContain("JWT_SECRET");
    const c = parseConfig({ DENO_ENV: "production", JWT_SECRET: SECRET });
    expect(c.production).toBe(true);
    expect(c.jwtSecret).toBe(SECRET);
  });
});

describe("resolveJwtSecret", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await Deno.remove(d, { recursive: true }).catch(() => {});
  });

  it("uses JWT_SECRET when given and writes nothing", async () => {
    const dir = await Deno.makeTempDir();
    dirs.push(dir);
    expect(await resolveJwtSecret(parseConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }))).toBe(SECRET);
    expect([...Deno.readDirSync(dir)]).toEqual([]);
  });

  it("generates a secret once, keeps it in DATA_DIR and reuses it after a restart", async () => {
    const dir = await Deno.makeTempDir();
    dirs.push(dir);
    const dataDir = `${dir}/nested/data`;
    const first = await resolveJwtSecret(parseConfig({ DATA_DIR: dataDir }));
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await Deno.readTextFile(`${dataDir}/jwt-secret`)).trim()).toBe(first);
    const second = await resolveJwtSecret(parseConfig({ DATA_DIR: dataDir }));
    expect(second).toBe(first);
  });

  it("gives different data directories different secrets", async () => {
    const a = await Deno.makeTempDir();
    const b = await Deno.makeTempDir();
    dirs.push(a, b);
    const sa = await resolveJwtSecret(parseConfig({ DATA_DIR: a }));
    const sb = await resolveJwtSecret(parseConfig({ DATA_DIR: b }));
    expect(sa).not.toBe(sb);
  });

  it("two processes starting at once end up with the same secret", async () => {
    const dir = await Deno.makeTempDir();
    dirs.push(dir);
    const config = parseConfig({ DATA_DIR: dir });
    const [a, b] = await Promise.all([resolveJwtSecret(config), resolveJwtSecret(config)]);
    expect(a).toBe(b);
  });
});

describe("object storage and processing leases", () => {
  it("keeps files on local disk and leases jobs for 60 s by default", () => {
    const c = parseConfig({});
    expect(c.s3).toBeUndefined();
    expect(c.processingLeaseS).toBe(60);
    expect(parseConfig({ PROCESSING_LEASE_S: "15" }).processingLeaseS).toBe(15);
    expect(errorOf({ PROCESSING_LEASE_S: "0" })).toContain("PROCESSING_LEASE_S");
    expect(errorOf({ PROCESSING_LEASE_S: "86401" })).toContain("PROCESSING_LEASE_S");
    expect(parseConfig({ PROCESSING_LEASE_S: "86400" }).processingLeaseS).toBe(86_400);
  });

  it("holds Telegram polling 30 s unrenewed by default (TELEGRAM_POLL_LEASE_S, 1–3600)", () => {
    const bot = { TELEGRAM_BOT_TOKEN: "123:abc" };
    expect(parseConfig(bot).telegram?.pollLeaseS).toBe(30);
    expect(parseConfig({ ...bot, TELEGRAM_POLL_LEASE_S: "5" }).telegram?.pollLeaseS).toBe(5);
    for (const bad of ["0", "3601", "1.5", "abc"]) {
      expect(errorOf({ ...bot, TELEGRAM_POLL_LEASE_S: bad })).toContain("TELEGRAM_POLL_LEASE_S");
    }
  });

  it("refuses tracks longer than 30 minutes by default (MAX_TRACK_MINUTES)", () => {
    expect(parseConfig({}).maxTrackMinutes).toBe(30);
    expect(parseConfig({ MAX_TRACK_MINUTES: "90" }).maxTrackMinutes).toBe(90);
    for (const bad of ["0", "-1", "1.5", "abc"]) {
      expect(errorOf({ MAX_TRACK_MINUTES: bad })).toContain("MAX_TRACK_MINUTES");
    }
  });

  it("cuts off an upload whose body is silent for 60 s by default, at most 1800 s", () => {
    expect(parseConfig({}).uploadIdleTimeoutS).toBe(60);
    expect(parseConfig({ UPLOAD_IDLE_TIMEOUT_S: "5" }).uploadIdleTimeoutS).toBe(5);
    expect(parseConfig({ UPLOAD_IDLE_TIMEOUT_S: "1800" }).uploadIdleTimeoutS).toBe(1800);
    for (const bad of ["0", "-1", "1.5", "abc", "1801"]) {
      expect(errorOf({ UPLOAD_IDLE_TIMEOUT_S: bad })).toContain("UPLOAD_IDLE_TIMEOUT_S");
    }
  });

  it("reads the S3 variables, path-style endpoint and public address without trailing slashes", () => {
    const c = parseConfig({
      S3_BUCKET: "tracks",
      S3_ENDPOINT: "http://127.0.0.1:9000/",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PUBLIC_URL: "https://cdn.example.ru/",
    });
    expect(c.s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      bucket: "tracks",
      accessKeyId: "key",
      secretAccessKey: "secret",
      sessionToken: undefined,
      publicUrl: "https://cdn.example.ru",
    });
    expect(
      parseConfig({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s", S3_REGION: "auto" }).s3?.region,
    )
      .toBe("auto");
  });

  it("names missing S3 credentials, and S3 variables given without a bucket", () => {
    const missing = errorOf({ S3_BUCKET: "tracks" });
    expect(missing).toContain("S3_ACCESS_KEY_ID");
    expect(missing).toContain("S3_SECRET_ACCESS_KEY");
    expect(errorOf({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toContain("S3_ENDPOINT: has no effect without S3_BUCKET");
    expect(errorOf({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s", S3_ENDPOINT: "not a url" }))
      .toContain("S3_ENDPOINT");
  });
  it("configures the VK community's messages only with all four of its variables (issue 36)", () => {
    const four = {
      VK_GROUP_ID: "222000111",
      VK_GROUP_TOKEN: "vk1.a.t",
      VK_CALLBACK_SECRET: "s",
      VK_CALLBACK_CONFIRMATION: "c0nf",
    };
    expect(parseConfig({}).vkMessages).toBeUndefined();
    expect(parseConfig(four).vkMessages).toEqual({
      groupId: 222000111,
      token: "vk1.a.t",
      secret: "s",
      confirmation: "c0nf",
      apiUrl: "https://api.vk.com",
    });
    expect(parseConfig({ ...four, VK_API_URL: "http://127.0.0.1:9/" }).vkMessages?.apiUrl).toBe("http://127.0.0.1:9");
    const missing = errorOf({ VK_GROUP_ID: "222000111", VK_GROUP_TOKEN: "vk1.a.t" });
    expect(missing).toContain("VK_CALLBACK_SECRET: required with VK_GROUP_ID, VK_GROUP_TOKEN");
    expect(missing).toContain("VK_CALLBACK_CONFIRMATION");
    expect(missing).not.toContain("vk1.a.t");
    expect(errorOf({ ...four, VK_GROUP_ID: "club1" })).toContain("VK_GROUP_ID");
    expect(errorOf({ VK_API_URL: "http://127.0.0.1:9" })).toContain("VK_API_URL: has no effect without VK_GROUP_ID");
  });
});
