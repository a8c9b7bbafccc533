import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { client, rawBody, read } from "../../lib/api.ts";
import { adminKeys } from "../../lib/staff-queries.ts";

/**
 * The admin's users (docs/CONVENTIONS.md rule 8): calls under /api/admin,
 * typed by the server's routes; each write refreshes the queries that show it.
 */

const admin = client.admin;

export type AdminUser = InferResponseType<typeof admin.users[":id"]["$get"]>["user"];

export interface UserListParams {
  search: string;
  status: "all" | "active" | "banned";
  role: "all" | "admin" | "moderator" | "user";
}

export type UserList = InferResponseType<typeof admin.users.$get>;

export const adminUsersQuery = (p: UserListParams & { page?: number; page_size?: number }) =>
  queryOptions({
    queryKey: [...adminKeys.users, "list", p] as const,
    queryFn: ({ signal }) =>
      read(admin.users.$get({
        query: {
          search: p.search.trim(),
          status: p.status === "all" ? undefined : p.status,
          role: p.role === "all" ? undefined : p.role,
          page: p.page === undefined ? undefined : String(p.page),
          page_size: p.page_size === undefined ? undefined : String(p.page_size),
        },
      }, { init: { signal } })),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const adminUserQuery = (id: number) =>
  queryOptions({
    queryKey: [...adminKeys.users, "one", id] as const,
    queryFn: () => read(admin.users[":id"].$get({ param: { id: String(id) } })).then((b) => b.user),
    staleTime: 0,
  });

/**
 * The user form builds its payload field by field (user-form.ts: empty optional values as null on
 * create, left out on update); the server validates every field again.
 */
type UserPayload = Record<string, unknown>;
type UserCreate = InferRequestType<typeof admin.users.$post>["json"];
type UserUpdate = InferRequestType<typeof admin.users[":id"]["$put"]>["json"];

/** Users and the dashboard's user counts change with any user write; both refetch in the background. */
function useUserRefresh() {
  const queryClient = useQueryClient();
  return (key: readonly unknown[] = adminKeys.users) => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard });
  };
}

export function useCreateAdminUser() {
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: (body: UserPayload) => read(admin.users.$post({ json: body as UserCreate })),
    onSuccess: () => refresh([...adminKeys.users, "list"]),
  });
}

/** Updates a user and puts the answer in that user's cache. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UserPayload }) =>
      read(admin.users[":id"].$put({ param: { id: String(id) }, json: body as UserUpdate })),
    onSuccess: (answer, { id }) => {
      queryClient.setQueryData([...adminKeys.users, "one", id], answer.user);
      refresh([...adminKeys.users, "list"]);
    },
  });
}

/** Ban, unban or delete from the users list. */
export function useAdminUserAction() {
  const refresh = useUserRefresh();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: "ban" | "unban" | "delete"; id: number }) => {
      const param = { id: String(id) };
      if (kind === "ban") return read(admin.users[":id"].ban.$post({ param, json: {} }));
      if (kind === "unban") return read(admin.users[":id"].unban.$post({ param }, rawBody({})));
      return read(admin.users[":id"].$delete({ param }));
    },
    onSuccess: () => refresh(),
  });
}
