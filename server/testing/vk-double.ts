import { Hono } from "hono";

/**
 * A local stand-in for VK ID that speaks its protocol (docs/protocols.md): the authorize
 * redirect with code/state/device_id, the form-encoded POST /oauth2/auth with PKCE, and
 * POST /oauth2/user_info. Errors are JSON `{ error, error_description }`, by default with HTTP 200
 * as VK sometimes answers.
 */
export interface VkDoubleUser {
  user_id: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  avatar?: string;
  email?: string;
}

export interface VkDoubleFailure {
  status?: number;
  body: unknown;
}

export interface VkDouble {
  url: string;
  clientId: string;
  /** The VK user the next authorization signs in. */
  user: VkDoubleUser;
  /** Makes the next call to this endpoint fail with the given answer. */
  failNext(endpoint: "authorize" | "auth" | "user_info", failure?: VkDoubleFailure): void;
  /** Requests to /oauth2/* seen so far (method, path, content type, form). */
  requests: { path: string; contentType: string | null; form: Record<string, string> }[];
  stop(): Promise<void>;
}

interface Grant {
  user: VkDoubleUser;
  clientId: string;
  redirectUri: string;
  challenge: string;
  state: string;
  deviceId: string;
  used: boolean;
}

async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const rand = () => crypto.randomUUID().replace(/-/g, "");

export function startVkDouble(opts: { clientId?: string; user?: VkDoubleUser } = {}): Promise<VkDouble> {
  const clientId = opts.clientId ?? "51234567";
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, VkDoubleUser>();
  const failures = new Map<string, VkDoubleFailure>();
  const requests: VkDouble["requests"] = [];
  const double = {
    clientId,
    user: opts.user ?? { user_id: "1001", first_name: "Иван", last_name: "Петров", phone: "79990001122" },
  } as VkDouble;

  const vkError = (error: string, description: string, status = 200) =>
    new Response(JSON.stringify({ error, error_description: description }), {
      status,
      headers: { "content-type": "application/json" },
    });
  const failure = (endpoint: string) => {
    const f = failures.get(endpoint);
    if (!f) return null;
    failures.delete(endpoint);
    return new Response(JSON.stringify(f.body), {
      status: f.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  };
  const readForm = async (req: Request) => {
    const contentType = req.headers.get("content-type");
    const form = contentType?.startsWith("application/x-www-form-urlencoded")
      ? Object.fromEntries(new URLSearchParams(await req.text()))
      : {};
    requests.push({ path: new URL(req.url).pathname, contentType, form });
    return form;
  };

  const app = new Hono()
    .get("/authorize", (c) => {
      const q = c.req.query();
      if (q.client_id !== clientId) return c.text("unknown client_id", 400);
      if (q.response_type !== "code" || !q.redirect_uri || !q.state || !q.code_challenge) {
        return c.text("missing parameters", 400);
      }
      if (q.code_challenge_method?.toLowerCase() !== "s256") return c.text("code_challenge_method must be s256", 400);
      const back = new URL(q.redirect_uri);
      const failed = failures.get("authorize");
      if (failed) {
        failures.delete("authorize");
        back.searchParams.set("error", String((failed.body as { error?: string })?.error ?? "access_denied"));
        back.searchParams.set("state", q.state);
        return c.redirect(back.toString(), 302);
      }
      const code = `vk2.a.${rand()}`;
      const deviceId = `dev-${rand().slice(0, 16)}`;
      grants.set(code, {
        user: { ...double.user },
        clientId,
        redirectUri: q.redirect_uri,
        challenge: q.code_challenge,
        state: q.state,
        deviceId,
        used: false,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.state);
      back.searchParams.set("device_id", deviceId);
      back.searchParams.set("expires_in", "600");
      back.searchParams.set("type", "code_v2");
      return c.redirect(back.toString(), 302);
    })
    .post("/oauth2/auth", async (c) => {
      const form = await readForm(c.req.raw);
      const failed = failure("auth");
      if (failed) return failed;
      if (form.grant_type !== "authorization_code") return vkError("unsupported_grant_type", "grant_type");
      const grant = grants.get(form.code ?? "");
      if (!grant || grant.used) return vkError("invalid_grant", "Code is invalid or expired.");
      grant.used = true;
      if (form.client_id !== grant.clientId) return vkError("invalid_client", "client_id mismatch");
      if (form.device_id !== grant.deviceId) return vkError("invalid_grant", "device_id mismatch");
      if (form.redirect_uri !== grant.redirectUri) return vkError("invalid_grant", "redirect_uri mismatch");
      if (!form.code_verifier || (await s256(form.code_verifier)) !== grant.challenge) {
        return vkError("invalid_grant", "code_verifier is invalid");
      }
      const accessToken = `vk2.a.${rand()}`;
      accessTokens.set(accessToken, grant.user);
      return c.json({
        access_token: accessToken,
        refresh_token: `vk2.r.${rand()}`,
        id_token: `id.${rand()}`,
        token_type: "Bearer",
        expires_in: 3600,
        user_id: Number(grant.user.user_id),
        state: form.state ?? grant.state,
        scope: "vkid.personal_info phone",
      });
    })
    .post("/oauth2/user_info", async (c) => {
      const form = await readForm(c.req.raw);
      const failed = failure("user_info");
      if (failed) return failed;
      if ((c.req.query("client_id") ?? form.client_id) !== clientId) return vkError("invalid_client", "client_id");
      const user = accessTokens.get(form.access_token ?? "");
      if (!user) return vkError("invalid_token", "access_token is missing or invalid", 401);
      return c.json({
        user: {
          user_id: user.user_id,
          first_name: user.first_name ?? "",
          last_name: user.last_name ?? "",
          phone: user.phone,
          avatar: user.avatar ?? "",
          email: user.email ?? "",
          sex: 2,
          verified: false,
          birthday: "01.01.2000",
        },
      });
    });

  return new Promise((resolve) => {
    const server = Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: ({ port }) => {
        double.url = `http://127.0.0.1:${port}`;
        resolve(double);
      },
    }, app.fetch);
    double.requests = requests;
    double.failNext = (endpoint, f) =>
      failures.set(endpoint, f ?? { body: { error: "access_denied", error_description: "User denied access" } });
    double.stop = () => server.shutdown();
  });
}
