import { callOptions, client, read } from "../../lib/api.ts";
import { useCall } from "../../lib/use-call.ts";

/** POST /api/auth/telegram/webapp: the launch data signs in (issue 36). */
export function signInWithLaunch(initData: string) {
  return read(client.auth.telegram.webapp.$post({ json: { init_data: initData } }, callOptions({ noRetry: true })));
}

/** PUT /api/auth/telegram/webapp/write-access: what `requestWriteAccess` answered. */
export function useStoreWriteAccess() {
  return useCall((allowed: boolean) =>
    read(client.auth.telegram.webapp["write-access"].$put({ json: { allowed } }, callOptions({ noRetry: true })))
  );
}
