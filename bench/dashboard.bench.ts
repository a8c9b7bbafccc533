/**
 * Admin dashboard and track list on a big database: 100,000 tracks (and 2,000 users) inserted in
 * batches into a temporary database file, then the real handlers timed through the app
 * (`GET /api/admin/dashboard?period=...`, `GET /api/admin/dashboard/response-figures?period=...`,
 * `GET /api/admin/tracks?...`), with 300,000 decision and listen history rows for the figures.
 * Targets: dashboard and response figures ≤ 100 ms per call at 100k tracks; the track list with filters and paging stays
 * well under that, and the unpaged list of 10,000 tracks stays interactive.
 */
import { DIRECTIONS } from "../domain/directions.ts";
import { createTestApp } from "../server/testing/create-test-app.ts";
import { createUser, signIn } from "../server/testing/factories.ts";
import { figuresWindow } from "../server/admin/dashboard.ts";

const TRACKS = 100_000;
const HISTORY = 300_000;
const USERS = 2_000;
const BATCH = 500;
const RUNS = 7;
const DASHBOARD_TARGET_MS = 100;

// Direction sets that respect the conflict table.
const SETS = [
  "label_neuropunk",
  "podcast_neuropunk",
  "label_neuropunk,podcast_neuropunk",
  "label_koster",
  "label_koster,podcast_koster",
  "podcast_koster",
  "show_neurogon",
  "radio_k_profit",
  "show_neurogon,podcast_neuropunk",
  "label_koster,show_neurogon",
];

function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

async function fill(t: Awaited<ReturnType<typeof createTestApp>>, count: number, users: number) {
  const client = t.ctx.db.$client;
  const rand = rng(42);
  const now = Date.now();
  const start = performance.now();
  for (let i = 0; i < users; i += BATCH) {
    const n = Math.min(BATCH, users - i);
    const rows: string[] = [];
    const args: (string | null)[] = [];
    for (let j = 0; j < n; j++) {
      const k = i + j;
      rows.push("(?, ?, ?, ?, ?)");
      args.push(
        `bench_user_${k}`,
        k % 3 !== 1 ? `vk${k}` : null,
        k % 3 !== 0 ? `tg${k}` : null,
        `Имя${k}`,
        `Фамилия${k}`,
      );
    }
    await client.execute({
      sql: `INSERT INTO users (username, vk_id, telegram_id, first_name, last_name) VALUES ${rows.join(",")}`,
      args,
    });
  }
  const firstUser = Number(
    (await client.execute("SELECT min(id) AS m FROM users WHERE username LIKE 'bench_user_%'")).rows[0].m,
  );
  for (let i = 0; i < count; i += BATCH) {
    const n = Math.min(BATCH, count - i);
    const rows: string[] = [];
    const args: (string | number | null)[] = [];
    for (let j = 0; j < n; j++) {
      const k = i + j;
      const guest = rand() < 0.1;
      rows.push("(?, ?, ?, ?, ?, ?, 'completed')");
      args.push(
        `Artist ${k % 997} - Track ${k}.mp3`,
        guest ? null : firstUser + Math.floor(rand() ** 2 * users),
        guest ? `Гость ${k}` : null,
        SETS[Math.floor(rand() * SETS.length)],
        // Spread over two years, denser recently.
        Math.floor(now - rand() ** 2 * 730 * 86_400_000),
        rand() < 0.4 ? 1 : 0,
      );
    }
    await client.execute({
      sql:
        `INSERT INTO tracks (filename, user_id, guest_username, directions, upload_date, downloaded, status) VALUES ${
          rows.join(",")
        }`,
      args,
    });
  }
  return performance.now() - start;
}

/**
 * Staff votes (issue 24): on every 5th track a vote of the admin on its first direction, on every
 * 10th a second voter's, on every 20th a third's: 35,000 votes, a third of them split or single.
 */
async function addVotes(t: Awaited<ReturnType<typeof createTestApp>>, adminId: number): Promise<number> {
  const client = t.ctx.db.$client;
  const voters = (await client.execute("SELECT id FROM users WHERE username LIKE 'bench_user_%' ORDER BY id LIMIT 2"))
    .rows.map((r) => Number(r.id));
  const first = "substr(directions || ',', 1, instr(directions || ',', ',') - 1)";
  for (const [voter, every] of [[adminId, 5], [voters[0], 10], [voters[1], 20]]) {
    await client.execute({
      sql: `INSERT INTO track_votes (track_id, direction, user_id, vote, word, voted_at)
            SELECT id, ${first}, ?, (abs(random()) % 3) - 1, NULL, upload_date FROM tracks WHERE id % ? = 0`,
      args: [voter, every],
    });
  }
  await client.execute("ANALYZE");
  return Number((await client.execute("SELECT count(*) AS n FROM track_votes")).rows[0].n);
}

/**
 * The decision and listen history the response figures read (issue 24): HISTORY rows over the
 * tracks' pairs, as the desk writes them: a listening mark hours to days after the upload, then
 * for most pairs a decision (some shortlisted first, some undone within the hold and taken again).
 */
async function fillHistory(t: Awaited<ReturnType<typeof createTestApp>>, rows: number, staffIds: number[]) {
  const client = t.ctx.db.$client;
  const rand = rng(7);
  const start = performance.now();
  const trackRows = (await client.execute("SELECT id, directions, upload_date FROM tracks ORDER BY id")).rows;
  let written = 0;
  let call = 0;
  let batch: (string | number | null)[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await client.execute({
      sql:
        `INSERT INTO track_decision_history (track_id, direction, revision, from_status, to_status, decided_by, decided_at, call_id, undoes) VALUES ${
          batch.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(",")
        }`,
      args: batch.flat(),
    });
    batch = [];
  };
  const now = Date.now();
  outer: for (let pass = 0; pass < 4; pass++) {
    for (const tr of trackRows) {
      const directions = String(tr.directions).split(",");
      const direction = directions[pass % directions.length];
      const up = Number(tr.upload_date);
      const by = () => staffIds[Math.floor(rand() * staffIds.length)];
      let at = up + Math.floor(rand() ** 2 * 30 * 86_400_000);
      const entries: [string, string, string | null, string | null][] = [];
      if (pass === 0) entries.push(["new", "listened", null, null]);
      else {
        const c = `bench-${call++}`;
        const outcome = rand() < 0.15 ? "shortlisted" : rand() < 0.5 ? "accepted" : "declined";
        entries.push(["listened", outcome, c, null]);
        if (rand() < 0.05) entries.push([outcome, "listened", null, c]);
      }
      for (const [from, to, c, undoes] of entries) {
        if (at > now) at = now;
        const key = `${tr.id}:${direction}`;
        const revision = (revisions.get(key) ?? 0) + 1;
        revisions.set(key, revision);
        batch.push([Number(tr.id), direction, revision, from, to, by(), at, c, undoes]);
        at += 60_000;
        written++;
        if (batch.length >= 100) await flush();
        if (written >= rows) break outer;
      }
    }
  }
  await flush();
  return { ms: performance.now() - start, written };
}
const revisions = new Map<string, number>();

async function time(fn: () => Promise<void>, runs = RUNS) {
  await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    samples.push(performance.now() - s);
  }
  samples.sort((a, b) => a - b);
  return {
    median_ms: +samples[Math.floor(samples.length / 2)].toFixed(1),
    max_ms: +samples[samples.length - 1].toFixed(1),
  };
}

export default async function run() {
  const big = await createTestApp();
  const small = await createTestApp();
  try {
    const admin = await createUser(big.ctx.db, { is_admin: true });
    const headers = (await signIn(big.ctx, admin)).headers;
    const insert_ms = Math.round(await fill(big, TRACKS, USERS));
    const votes = await addVotes(big, admin.id);
    const staffIds = [admin.id];
    for (let i = 0; i < 8; i++) {
      staffIds.push((await createUser(big.ctx.db, { is_moderator: true, moderator_categories: DIRECTIONS[i % 7] })).id);
    }
    const history = await fillHistory(big, HISTORY, staffIds);
    await big.ctx.db.$client.execute("ANALYZE");

    const get = (app: typeof big.app, h: Record<string, string>, path: string) => async () => {
      const res = await app.request(path, { headers: h });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };

    const dashboard: Record<string, unknown> = {};
    let worst = 0;
    for (const period of ["day", "week", "month", "year"]) {
      const r = await time(get(big.app, headers, `/api/admin/dashboard?period=${period}`));
      dashboard[period] = r;
      worst = Math.max(worst, r.median_ms);
    }
    // The review desk's counts on the moderator's dashboard (issue 23).
    const review_queue = await time(get(big.app, headers, "/api/moderator/dashboard"));
    // The response figures (issue 24, decisions 0236, 0237), their own call beside the dashboard's:
    // every direction and every staff member, per period.
    const response_figures: Record<string, unknown> = {};
    let worstFigures = 0;
    for (const period of ["day", "week", "month", "year"] as const) {
      const r = await time(get(big.app, headers, `/api/admin/dashboard/response-figures?period=${period}`));
      response_figures[period] = r;
      worstFigures = Math.max(worstFigures, r.median_ms);
    }
    // The moderator's figures (the admin here: every direction, their own row), month by default.
    const moderator_figures = await time(get(big.app, headers, "/api/moderator/dashboard/response-figures"));
    worstFigures = Math.max(worstFigures, moderator_figures.median_ms);
    const yearFigures = await big.ctx.review.responseFigures("*", figuresWindow("year", new Date(), 0), "all");
    const heardInYear = yearFigures.by_direction.reduce((n, d) => n + d.heard, 0);
    if (heardInYear === 0) throw new Error("the seeded history produced no figures");
    const check = await (await big.app.request("/api/admin/dashboard?period=year", { headers })).json();
    if (check.stats.total_tracks !== TRACKS) {
      throw new Error(`expected ${TRACKS} tracks, got ${check.stats.total_tracks}`);
    }

    const list100k = {
      page_1_size_10: await time(get(big.app, headers, "/api/admin/tracks?page=1&page_size=10")),
      last_page_size_100: await time(get(big.app, headers, `/api/admin/tracks?page=${TRACKS / 100}&page_size=100`)),
      filename_filter: await time(get(big.app, headers, "/api/admin/tracks?filename=track%20999&page=1&page_size=25")),
      user_filter_cyrillic: await time(
        get(big.app, headers, "/api/admin/tracks?user=%D0%B8%D0%BC%D1%8F12&page=1&page_size=25"),
      ),
      direction_downloaded_date: await time(
        get(
          big.app,
          headers,
          `/api/admin/tracks?direction=${DIRECTIONS[2]}&downloaded=false&date=${
            new Date().toISOString().slice(0, 10)
          }&page=1&page_size=50`,
        ),
      ),
      sort_by_user: await time(get(big.app, headers, "/api/admin/tracks?sort=user&page=3&page_size=50")),
      // Issue 24 (decision 0230): the best-scored first, and "needs a second ear", over `votes` votes.
      sort_by_score: await time(get(big.app, headers, "/api/admin/tracks?sort=-score&page=1&page_size=50")),
      votes_second_ear: await time(get(big.app, headers, "/api/admin/tracks?votes=second_ear&page=1&page_size=25")),
    };

    const smallAdmin = await createUser(small.ctx.db, { is_admin: true });
    const smallHeaders = (await signIn(small.ctx, smallAdmin)).headers;
    await fill(small, 10_000, 500);
    await small.ctx.db.$client.execute("ANALYZE");
    const list10k = {
      unpaged_all_10000: await time(get(small.app, smallHeaders, "/api/admin/tracks"), 5),
      paged_10: await time(get(small.app, smallHeaders, "/api/admin/tracks?page=1&page_size=10")),
    };

    return {
      tracks: TRACKS,
      users: USERS,
      insert_ms,
      dashboard_ms_by_period: dashboard,
      dashboard_target_ms: DASHBOARD_TARGET_MS,
      history_rows: history.written,
      history_insert_ms: Math.round(history.ms),
      response_figures_ms_by_period: response_figures,
      response_figures_target_ms: DASHBOARD_TARGET_MS,
      moderator_response_figures_ms: moderator_figures,
      review_queue_ms: review_queue,
      votes,
      track_list_at_100k: list100k,
      track_list_at_10k: list10k,
      pass: worst <= DASHBOARD_TARGET_MS && worstFigures <= DASHBOARD_TARGET_MS,
    };
  } finally {
    await big.close();
    await small.close();
  }
}

if (import.meta.main) console.log(JSON.stringify(await run(), null, 2));
