import { useQueryClient } from "@tanstack/react-query";
import { useNavigate, useRouter } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { NEED_AUTH_EVENT } from "../../components/need-auth.ts";
import { auth, useAuth } from "../../lib/auth.ts";
import { useAccountCheck } from "./account-check.ts";
import { BanModal } from "./ban-modal.tsx";
import { LoginDialog } from "./login-dialog.tsx";
import { SwitchAccountDialog } from "./switch-account-dialog.tsx";
import "./auth.css";

/**
 * Mounted once in the root layout: the login dialog (need-authentication event), the ban modal,
 * the account-switch question of a sign-in address, the account check, and what follows the end of
 * a session.
 */
export function AuthOverlays() {
  const { isAuthenticated, banMessage, user, switchOffer } = useAuth();
  const [dialogOpen, setDialogOpen] = useState(false);
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const wasAuthenticated = useRef(isAuthenticated);
  const lastUserId = useRef<number | null>(user?.id ?? null);
  useAccountCheck();

  useEffect(() => {
    const open = () => {
      if (!auth.isAuthenticated) setDialogOpen(true);
    };
    globalThis.addEventListener(NEED_AUTH_EVENT, open);
    return () => globalThis.removeEventListener(NEED_AUTH_EVENT, open);
  }, []);

  useEffect(() => {
    if (isAuthenticated) setDialogOpen(false);
    if (wasAuthenticated.current && !isAuthenticated) {
      // Nothing of the previous session may stay on screen: drop cached data and re-run the guards,
      // which send a signed-out visitor away from signed-in pages.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
      router.invalidate();
    }
    wasAuthenticated.current = isAuthenticated;
  }, [isAuthenticated]);

  useEffect(() => {
    const id = user?.id ?? null;
    if (id !== null && lastUserId.current !== null && id !== lastUserId.current) {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "config" });
      // Another person now (a sign-in address agreed to): the guards decide again for them.
      router.invalidate();
    }
    if (id !== null) lastUserId.current = id;
  }, [user?.id]);

  const closeBan = () => {
    auth.closeBanModal();
    navigate({ to: "/login" });
  };

  return (
    <>
      {dialogOpen && !banMessage && <LoginDialog onClose={() => setDialogOpen(false)} />}
      {banMessage && <BanModal message={banMessage} onClose={closeBan} />}
      {switchOffer && !banMessage && (
        <SwitchAccountDialog
          current={switchOffer.current}
          next={switchOffer.next}
          onAnswer={(yes) => auth.answerSwitch(yes)}
        />
      )}
    </>
  );
}
