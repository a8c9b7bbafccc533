import type { User } from "../../lib/auth.ts";
import { initials } from "./profile-rules.ts";

/** The user's picture, or their initials on the accent colour. */
export function Avatar({ user, src, small }: {
  user: Pick<User, "first_name" | "last_name" | "username" | "avatar">;
  /** Overrides the saved avatar (a preview of a file not yet sent). */
  src?: string | null;
  small?: boolean;
}) {
  const image = src ?? user.avatar;
  return (
    <span className={small ? "avatar avatar-sm" : "avatar"} data-testid="avatar">
      {image
        ? <img src={image} alt="Аватар" />
        : <span role="img" aria-label={`Инициалы: ${initials(user)}`}>{initials(user)}</span>}
    </span>
  );
}
