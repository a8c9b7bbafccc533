/**
 * `deno task seed`: demo content so a fresh site looks alive. Idempotent: running it again adds
 * nothing and changes nothing that is already there (existing rows are left as they are, so a
 * role changed in the admin panel is not undone).
 *
 * Users `admin`, `moderator` (label_koster, podcast_koster) and `artist`; FAQ entries about sending
 * tracks; two link tiles with images and one SoundCloud track tile for the home-page slider; the
 * ready-made decline messages of the decision form (issue 13), found again by their title.
 */
import { and, eq, inArray, max } from "drizzle-orm";
import { type Db, migrateDb, openDb } from "../db/client.ts";
import { declineTemplates, faqs, type NewUser, sliderTiles, users } from "../db/schema.ts";
import { createLocalStorage, type FileStorage } from "../server/storage/file-storage.ts";

export const SEED_USERS: NewUser[] = [
  { username: "admin", first_name: "Админ", last_name: "Нейропанк", is_admin: true },
  {
    username: "moderator",
    first_name: "Модератор",
    last_name: "Костёр",
    is_moderator: true,
    moderator_categories: "label_koster,podcast_koster",
  },
  { username: "artist", first_name: "Артист", last_name: "Тестовый", city: "Москва", favorite_dnb_genre: "Neurofunk" },
];

export const SEED_FAQS: { question: string; answer: string }[] = [
  {
    question: "Какую музыку можно отправлять?",
    answer: "<p>Мы принимаем только drum&amp;bass и его поджанры: нейрофанк, ликвид, джамп-ап, джангл и другие.</p>" +
      "<p>Треки других жанров приводят к блокировке аккаунта.</p>",
  },
  {
    question: "Как правильно назвать файл?",
    answer: "<p>Имя файла всегда в формате <strong>Артист - Название.mp3</strong>: между артистом и названием " +
      "ставится пробел, дефис и пробел.</p><p>В имени артиста не должно быть ID. Файлы с неверным именем " +
      "подсвечиваются красным и не загружаются.</p>",
  },
  {
    question: "В каком формате загружать треки?",
    answer: "<p>Поддерживается MP3 с битрейтом 320 kbps. За один раз можно выбрать несколько файлов.</p>",
  },
  {
    question: "Можно ли отправлять треки, созданные с помощью ИИ?",
    answer: "<p>Нет. Треки, сгенерированные искусственным интеллектом, приводят к блокировке аккаунта.</p>",
  },
  {
    question: "Куда попадёт мой трек?",
    answer: "<p>При загрузке выберите одно или несколько направлений: лейблы, подкасты, шоу или радио. " +
      "Некоторые направления нельзя выбрать вместе.</p>" +
      '<p>Загрузить трек можно на <a href="/">главной странице</a>, подробнее о проекте — на странице ' +
      '<a href="/about">О нас</a>.</p>',
  },
  {
    question: "Как узнать, что трек получен?",
    answer: "<p>После загрузки откроется страница обработки со статусом каждого трека.</p>" +
      '<p>В <a href="/profile">профиле</a> трек отмечен как «В обработке», пока его не скачала команда, ' +
      "и «Загружен» после этого.</p>",
  },
];

/** Ready-made decline messages (issue 13); administrators edit them in the panel. */
export const SEED_DECLINE_TEMPLATES: { title: string; text: string }[] = [
  {
    title: "Не подходит по стилю",
    text: "Спасибо, что прислали трек! Мы внимательно его послушали, но по стилю он не подходит этому " +
      "направлению. Будем рады услышать ваши новые работы.",
  },
  {
    title: "Нужно доработать сведение",
    text: "Спасибо за трек! Идея нам понравилась, но сведение и мастеринг пока не дотягивают до уровня " +
      "релиза. Доработайте звук и присылайте снова.",
  },
  {
    title: "Уже заполнен план релизов",
    text: "Спасибо за трек! Сейчас план релизов этого направления заполнен, и мы не можем его взять. " +
      "Присылайте новые работы — мы слушаем всё.",
  },
  {
    title: "Низкое качество файла",
    text: "Спасибо за трек! Файл пришёл в низком качестве. Пришлите, пожалуйста, MP3 320 kbps без " +
      "перегруза — тогда мы послушаем его ещё раз.",
  },
];

interface SeedTile {
  tile_type: "link" | "track";
  /** Committed image under static/assets/seed/ (link tiles). */
  asset?: string;
  redirect_url?: string;
  track_url?: string;
}

export const SEED_TILES: SeedTile[] = [
  { tile_type: "link", asset: "label-neuropunk.png", redirect_url: "/about" },
  { tile_type: "link", asset: "podcast-koster.jpg", redirect_url: "/faq" },
  { tile_type: "track", track_url: "https://soundcloud.com/neuropunk" },
];

const ASSETS = new URL("../static/assets/seed/", import.meta.url);

export interface SeedOptions {
  /** Public files root (STATIC_DIR); slider images are copied to `<staticDir>/storage/slider/`. */
  staticDir: string;
  /** Where the slider images go instead (the bucket when S3_BUCKET is set); default `<staticDir>/storage`. */
  publicStorage?: FileStorage;
}

export interface SeedReport {
  users: { created: string[]; existing: string[] };
  faqs: number;
  declineTemplates: number;
  tiles: number;
  images: number;
}

/** Seeds `db` (already migrated). Safe to run any number of times. */
export async function seedDatabase(db: Db, opts: SeedOptions): Promise<SeedReport> {
  const report: SeedReport = {
    users: { created: [], existing: [] },
    faqs: 0,
    declineTemplates: 0,
    tiles: 0,
    images: 0,
  };

  const names = SEED_USERS.map((u) => u.username);
  const present = new Set(
    (await db.select({ username: users.username }).from(users).where(inArray(users.username, names)))
      .map((r) => r.username),
  );
  const missing = SEED_USERS.filter((u) => !present.has(u.username));
  if (missing.length) {
    await db.insert(users).values(missing).onConflictDoNothing({ target: users.username });
  }
  report.users.created = missing.map((u) => u.username);
  report.users.existing = names.filter((n) => present.has(n));

  const questions = SEED_FAQS.map((f) => f.question);
  const knownQuestions = new Set(
    (await db.select({ q: faqs.question }).from(faqs).where(inArray(faqs.question, questions))).map((r) => r.q),
  );
  const newFaqs = SEED_FAQS.filter((f) => !knownQuestions.has(f.question));
  if (newFaqs.length) {
    const [{ top }] = await db.select({ top: max(faqs.order) }).from(faqs);
    const start = (top ?? 0) + 1;
    await db.insert(faqs).values(newFaqs.map((f, i) => ({ ...f, order: start + i })));
    report.faqs = newFaqs.length;
  }

  const titles = SEED_DECLINE_TEMPLATES.map((t) => t.title);
  const knownTitles = new Set(
    (await db.select({ title: declineTemplates.title }).from(declineTemplates).where(
      inArray(declineTemplates.title, titles),
    ))
      .map((r) => r.title),
  );
  const newTemplates = SEED_DECLINE_TEMPLATES.filter((t) => !knownTitles.has(t.title));
  if (newTemplates.length) {
    await db.insert(declineTemplates).values(newTemplates);
    report.declineTemplates = newTemplates.length;
  }

  const store = opts.publicStorage ?? createLocalStorage(`${opts.staticDir}/storage`);
  const copyAsset = async (asset: string, filename: string) => {
    const file = await Deno.open(new URL(asset, ASSETS), { read: true });
    await store.write(`slider/${filename}`, file.readable);
  };
  for (const tile of SEED_TILES) {
    const match = tile.tile_type === "link"
      ? and(eq(sliderTiles.tile_type, "link"), eq(sliderTiles.redirect_url, tile.redirect_url!))
      : and(eq(sliderTiles.tile_type, "track"), eq(sliderTiles.track_url, tile.track_url!));
    const [row] = await db.select().from(sliderTiles).where(match).limit(1);
    if (row) {
      // The tile survived but its image did not (e.g. a wiped static/storage): put it back.
      if (tile.asset && row.image_filename && !(await store.stat(`slider/${row.image_filename}`))) {
        await copyAsset(tile.asset, row.image_filename);
        report.images++;
      }
      continue;
    }
    let image_filename: string | null = null;
    if (tile.asset) {
      image_filename = `${crypto.randomUUID()}${tile.asset.slice(tile.asset.lastIndexOf("."))}`;
      await copyAsset(tile.asset, image_filename);
      report.images++;
    }
    await db.insert(sliderTiles).values({
      tile_type: tile.tile_type,
      image_filename,
      redirect_url: tile.redirect_url ?? null,
      track_url: tile.track_url ?? null,
    });
    report.tiles++;
  }
  return report;
}

if (import.meta.main) {
  const { configFromEnvOrExit } = await import("../server/config.ts");
  const config = configFromEnvOrExit();
  const db = await openDb({ url: config.databaseUrl, authToken: config.databaseAuthToken });
  try {
    await migrateDb(db);
    const { createStores } = await import("../server/storage/stores.ts");
    const { publicStorage } = createStores(config);
    const r = await seedDatabase(db, { staticDir: config.staticDir, publicStorage });
    console.log(
      `Seed: users created ${r.users.created.join(", ") || "none"}` +
        (r.users.existing.length ? ` (already there: ${r.users.existing.join(", ")})` : "") +
        `; FAQ entries added ${r.faqs}; decline templates added ${r.declineTemplates}; slider tiles added ${r.tiles}; images copied ${r.images}.`,
    );
  } finally {
    db.$client.close();
  }
}
