import type { User } from "../../db/schema.ts";
import type { PublicAddress } from "../http/public-static.ts";

/**
 * The user as the API shows it to the user themself (spec 1 §3). Internal fields (the pending
 * phone claim, the last Telegram hash, timestamps) stay on the server.
 */
export function userView(user: User, address: PublicAddress = (stored) => stored) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    // Stored as /static/storage/…; the bucket's public address when S3_PUBLIC_URL is set (0113).
    avatar: address(user.avatar),
    city: user.city,
    birth_date: user.birth_date,
    bio: user.bio,
    favorite_dnb_genre: user.favorite_dnb_genre,
    vk_id: user.vk_id,
    telegram_id: user.telegram_id,
    phone_number: user.phone_number,
    is_admin: user.is_admin,
    is_moderator: user.is_moderator,
    moderator_categories: user.moderator_categories,
    is_banned: user.is_banned,
    ban_reason: user.ban_reason,
  };
}

export type UserView = ReturnType<typeof userView>;

/**
 * GET /api/auth/me's answer: the route and its lane in front of the router (`meLane` in auth/routes.ts) both
 * send exactly this.
 */
export function meAnswer(user: User, address: PublicAddress) {
  return { success: true as const, user: userView(user, address), message: "Пользователь авторизован" };
}
