/** Shapes the API answers with (spec 1 §3, spec 2 §3). */
export interface User {
  id: number;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar: string | null;
  city: string | null;
  birth_date: string | null;
  bio: string | null;
  favorite_dnb_genre: string | null;
  vk_id: string | null;
  telegram_id: string | null;
  telegram_hash?: string | null;
  phone_number: string | null;
  is_admin: boolean;
  is_moderator: boolean;
  moderator_categories: string;
  is_banned: boolean;
  ban_reason: string | null;
}

export interface PublicConfig {
  maintenance: boolean;
  providers: { vk: boolean; telegram: boolean };
  limits: { max_upload_file_mb: number; max_upload_files: number };
}
