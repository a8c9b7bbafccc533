/**
 * `deno task login-link <username>`: a sign-in address for an existing user, for local work and
 * the end-to-end tests (VK and Telegram cannot be reached from here). The client stores
 * `access_token` and `refresh_token` from the query and removes them from the address.
 * The address is the last line printed.
 */
import { migrateDb, openDb } from "../../db/client.ts";
import { createTokenService } from "../auth/tokens.ts";
import { ConfigError, parseConfig, resolveJwtSecret } from "../config.ts";
import { createUsersService } from "../users/service.ts";

export async function loginLink(env: Record<string, string | undefined>, username: string): Promise<string> {
  const config = parseConfig(env);
  const db = await openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  try {
    await migrateDb(db);
    const tokens = createTokenService({
      db,
      secret: await resolveJwtSecret(config),
      accessTtlS: config.accessTokenTtlS,
      refreshTtlS: config.refreshTokenTtlS,
      now: () => new Date(),
    });
    const user = await createUsersService({ db, clock: { now: () => new Date() }, sessions: tokens })
      .byUsername(username);
    if (!user) throw new UserNotFoundError(username);
    const pair = await tokens.issue(user.id, "login-link");
    const query = new URLSearchParams({ access_token: pair.access_token, refresh_token: pair.refresh_token });
    return `${config.publicUrl}/?${query}`;
  } finally {
    db.$client.close();
  }
}

export class UserNotFoundError extends Error {
  constructor(readonly username: string) {
    super(`User "${username}" not found. Create it first (for example with \`deno task seed\`).`);
  }
}

if (import.meta.main) {
  const username = Deno.args[0]?.trim();
  if (!username) {
    console.error("Usage: deno task login-link <username>");
    Deno.exit(2);
  }
  try {
    console.log(await loginLink(Deno.env.toObject(), username));
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UserNotFoundError) {
      console.error(err.message);
      Deno.exit(1);
    }
    throw err;
  }
}
