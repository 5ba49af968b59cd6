// Generated from api.schema.json by `make migrate` / `make check`: do not edit.
// What each route accepts and answers (docs/generated-output.md).

/** Any JSON value (JSON and JSONB columns, raw SQL selectors without a declared type). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

// The schema's customTypes, as written.
export interface LoginRequest {
  /** The user's email address. */
  username: string;
  password: string;
}
export interface AuthResponse {
  token: string;
  tokenExp: string;
  refreshToken: string;
  refreshTokenExp: string;
}
export interface MeResponse {
  userId: number;
  companyId: number;
  role: "admin" | "manager" | "member";
  scopes: string[];
  /** When the access token expires (ISO 8601). */
  tokenExp: string;
}
export interface TaskAttachment {
  fileName: string;
  contentType: string;
  sizeBytes: number;
  url: string;
}
export interface ReportSummaryRequest {
  /** First day, YYYY-MM-DD (inclusive). */
  from: string;
  /** Last day, YYYY-MM-DD (inclusive). */
  to: string;
  groupBy: "project" | "assignee";
  projectIds?: number[];
  includeDone?: boolean;
}
export interface ReportSummaryRow {
  /** Project id or assignee id; null for unassigned tasks. */
  key: number | null;
  label: string;
  taskCount: number;
  doneCount: number;
  estimateHours: number;
}
export interface ReportSummary {
  from: string;
  to: string;
  groupBy: "project" | "assignee";
  rows: ReportSummaryRow[];
  totals: { taskCount: number; doneCount: number; estimateHours: number };
}

// Tables: every readable column (private ones never leave the database).

/** Table "company". */
export interface CompanyRow {
  id: number;
  createdOn: string;
  name: string;
  slug: string;
  plan: "free" | "team" | "enterprise";
  isListed: boolean;
  billingEmail?: string | null;
  settings: Json;
}

/** Table "user". */
export interface UserRow {
  id: number;
  createdOn: string;
  companyId: number;
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "manager" | "member";
  grantedScopes?: Json;
  isActive: boolean;
  avatarUrl: string | null;
  preferences: Json;
  lastLoginOn?: string | null;
}

/** Table "project". */
export interface ProjectRow {
  id: number;
  createdOn: string;
  companyId: number;
  ownerId: number | null;
  name: string;
  description: string | null;
  status: "planning" | "active" | "on_hold" | "completed" | "archived";
  budget?: number | null;
  settings: Json;
  startDate: string | null;
  dueDate: string | null;
}

/** Table "task". */
export interface TaskRow {
  id: number;
  createdOn: string;
  companyId: number;
  projectId: number;
  assigneeId: number | null;
  createdById: number | null;
  title: string;
  description: string | null;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
}

/** Table "comment". */
export interface CommentRow {
  id: number;
  createdOn: string;
  taskId: number;
  authorId: number | null;
  body: string;
}

/** Table "tag". */
export interface TagRow {
  id: number;
  companyId: number;
  name: string;
  color: string;
}

/** Table "task_tag". */
export interface TaskTagRow {
  taskId: number;
  tagId: number;
  createdOn: string;
}

/** Table "invoice". */
export interface InvoiceRow {
  id: number;
  createdOn: string;
  companyId: number;
  number: string;
  amount: number;
  currency: string;
  status: "draft" | "issued" | "paid" | "void";
  issuedOn: string | null;
  paidOn: string | null;
  lineItems: Json;
}

// Routes: the request each accepts and the envelope it answers with.

/** POST /api/v1/user/login: Exchanges an email and password for an access token and a refresh token. Public. */
export type PostUserLoginItem = AuthResponse;
export interface PostUserLoginRequest {
  path: {};
  body: LoginRequest;
}
export type PostUserLoginResponse = { data: PostUserLoginItem };

/** POST /api/v1/user/refresh-token: Exchanges a refresh token (possibly for an expired access token) for a new token pair. Public. */
export type PostUserRefreshTokenItem = AuthResponse;
export interface PostUserRefreshTokenRequest {
  path: {};
  body: {
    refreshToken: string;
  };
}
export type PostUserRefreshTokenResponse = { data: PostUserRefreshTokenItem };

/** GET /api/v1/company/public/:id: The name of a company listed in the public directory. Public: works without a token (row policy public_listing). */
export type GetCompanyPublicByIdItem = {
  id: number;
  name: string;
  slug: string;
};
export interface GetCompanyPublicByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type GetCompanyPublicByIdResponse = { data: GetCompanyPublicByIdItem };

/** GET /api/v1/user/me: The caller's own user row with the company name. lastLoginOn is only present for admins (column role). */
export type GetUserMeItem = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "manager" | "member";
  avatarUrl: string | null;
  preferences: Json;
  lastLoginOn?: string | null;
  companyId: number;
  companyName: string;
  createdOn: string;
};
export interface GetUserMeRequest {
  path: {};
  query: {};
}
export type GetUserMeResponse = { data: GetUserMeItem };

/** PATCH /api/v1/user/me: Updates the caller's own name and preferences (the row is selected by #userId, never by a client value). */
export type PatchUserMeItem = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  preferences: Json;
};
export interface PatchUserMeRequest {
  path: {};
  body: {
    firstName?: string;
    lastName?: string;
    preferences?: { [key: string]: Json };
  };
}
export type PatchUserMeResponse = { data: PatchUserMeItem };

/** GET /api/v1/user/me/session: What the server knows about the caller from the token: user, company, role and scopes. */
export type GetUserMeSessionItem = MeResponse;
export interface GetUserMeSessionRequest {
  path: {};
  query: {};
}
export type GetUserMeSessionResponse = { data: GetUserMeSessionItem };

/** POST /api/v1/user/me/avatar: Stores an uploaded image (multipart field `file`) and sets the caller's avatarUrl. */
export type PostUserMeAvatarItem = boolean;
export interface PostUserMeAvatarRequest {
  path: {};
  body: {};
}
export type PostUserMeAvatarResponse = { data: PostUserMeAvatarItem };

/** GET /api/v1/company/me: The caller's company. billingEmail needs the billing:read scope (column scope). */
export type GetCompanyMeItem = {
  id: number;
  name: string;
  slug: string;
  plan: "free" | "team" | "enterprise";
  isListed: boolean;
  billingEmail?: string | null;
  settings: Json;
  userCount: number;
  projectCount: number;
  createdOn: string;
};
export interface GetCompanyMeRequest {
  path: {};
  query: {};
}
export type GetCompanyMeResponse = { data: GetCompanyMeItem };

/** GET /api/v1/user: Everyone in the caller's company (row policy). lastLoginOn and grantedScopes are admin-only columns. */
export type GetUserItem = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "manager" | "member";
  isActive: boolean;
  avatarUrl: string | null;
  lastLoginOn?: string | null;
  grantedScopes?: Json;
};
export interface GetUserRequest {
  path: {};
  query: {};
}
export type GetUserResponse = { data: GetUserItem[] };

/** GET /api/v1/user/search: Users of the caller's company whose email, first or last name starts with q (case-insensitive; % and _ match literally). */
export type GetUserSearchItem = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: "admin" | "manager" | "member";
};
export interface GetUserSearchRequest {
  path: {};
  query: {
    q: string;
  };
}
export type GetUserSearchResponse = { data: GetUserSearchItem[] };

/** PATCH /api/v1/user/:id: Admin only. Changes another user's role, active flag and granted scopes. PATCH /user/me is matched first for the literal path. */
export type PatchUserByIdItem = {
  id: number;
  email: string;
  role: "admin" | "manager" | "member";
  isActive: boolean;
  grantedScopes?: Json;
};
export interface PatchUserByIdRequest {
  path: {
    id: string | number;
  };
  body: {
    role?: "admin" | "manager" | "member";
    isActive?: boolean;
    grantedScopes?: ("billing:read" | "tasks:write")[];
  };
}
export type PatchUserByIdResponse = { data: PatchUserByIdItem };

/** GET /api/v1/project: Paged, filterable and sortable list of the caller's company's projects, e.g. ?filter=(status,ne,archived)&sortBy=dueDate. Members do not get budget (and may not filter or sort on it). */
export type GetProjectItem = {
  id: number;
  name: string;
  status: "planning" | "active" | "on_hold" | "completed" | "archived";
  budget?: number | null;
  startDate: string | null;
  dueDate: string | null;
  settings: Json;
  companyName: string;
  ownerFirstName: string | null;
  ownerLastName: string | null;
  openTaskCount: number;
  createdOn: string;
};
export interface GetProjectRequest {
  path: {};
  query: {
    page?: number;
    perPage?: number;
    filter?: string;
    sortBy?: string;
    sortOrder?: "ASC" | "DESC" | "NONE" | "RAND";
    after?: string;
  };
}
export type GetProjectResponse = { data: GetProjectItem[]; total: number; next?: string | null };

/** GET /api/v1/project/:id: One project with its company and owner, its tasks (each with assignee and comments) ordered by due date. */
export type GetProjectByIdItem = {
  id: number;
  name: string;
  description: string | null;
  status: "planning" | "active" | "on_hold" | "completed" | "archived";
  budget?: number | null;
  settings: Json;
  startDate: string | null;
  dueDate: string | null;
  createdOn: string;
  companyId: number;
  companyName: string;
  ownerId: number | null;
  ownerFirstName: string | null;
  ownerLastName: string | null;
  openTaskCount: number;
  tasks: Array<{
    id: number;
    title: string;
    priority: "low" | "medium" | "high" | "urgent";
    estimateHours: number | null;
    done: boolean;
    dueDate: string | null;
    assigneeId: number | null;
    assigneeFirstName: string | null;
    commentCount: number;
    comments: Array<{
      id: number;
      authorId: number | null;
      body: string;
      createdOn: string;
    }>;
  }>;
};
export interface GetProjectByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type GetProjectByIdResponse = { data: GetProjectByIdItem };

/** POST /api/v1/project: Admins and managers create a project in their own company; companyId and ownerId come from the token (assignments). */
export type PostProjectItem = {
  id: number;
  name: string;
  description: string | null;
  status: "planning" | "active" | "on_hold" | "completed" | "archived";
  budget?: number | null;
  settings: Json;
  startDate: string | null;
  dueDate: string | null;
  ownerId: number | null;
  companyName: string;
  createdOn: string;
};
export interface PostProjectRequest {
  path: {};
  body: {
    name: string;
    description?: string | null;
    status?: "planning" | "active" | "on_hold" | "completed" | "archived";
    budget?: number | null;
    settings?: { [key: string]: Json };
    startDate?: string | null;
    dueDate?: string | null;
  };
}
export type PostProjectResponse = { data: PostProjectItem };

/** PATCH /api/v1/project/:id: Admins and managers update a project of their company. */
export type PatchProjectByIdItem = {
  id: number;
  name: string;
  description: string | null;
  status: "planning" | "active" | "on_hold" | "completed" | "archived";
  budget?: number | null;
  settings: Json;
  startDate: string | null;
  dueDate: string | null;
  ownerId: number | null;
  companyName: string;
  createdOn: string;
};
export interface PatchProjectByIdRequest {
  path: {
    id: string | number;
  };
  body: {
    name?: string;
    description?: string | null;
    status?: "planning" | "active" | "on_hold" | "completed" | "archived";
    budget?: number | null;
    settings?: { [key: string]: Json };
    startDate?: string | null;
    dueDate?: string | null;
    ownerId?: number | null;
  };
}
export type PatchProjectByIdResponse = { data: PatchProjectByIdItem };

/** DELETE /api/v1/project/:id: Admin only. Deletes the project; its tasks, their comments and tags go with it (ON DELETE CASCADE). */
export type DeleteProjectByIdItem = Record<string, never>;
export interface DeleteProjectByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type DeleteProjectByIdResponse = { data: true };

/** GET /api/v1/task/mine: Tasks assigned to the caller, soonest due first. */
export type GetTaskMineItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskMineRequest {
  path: {};
  query: {};
}
export type GetTaskMineResponse = { data: GetTaskMineItem[] };

/** GET /api/v1/task/assigned-to-me: Tasks assigned to the caller. Deprecated: use GET /task/mine. */
export type GetTaskAssignedToMeItem = {
  id: number;
  projectId: number;
  title: string;
  done: boolean;
  dueDate: string | null;
};
export interface GetTaskAssignedToMeRequest {
  path: {};
  query: {};
}
export type GetTaskAssignedToMeResponse = { data: GetTaskAssignedToMeItem[] };

/** GET /api/v1/task/search: Tasks whose title or description contains q (case-insensitive; % and _ in q match literally). */
export type GetTaskSearchItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskSearchRequest {
  path: {};
  query: {
    q: string;
  };
}
export type GetTaskSearchResponse = { data: GetTaskSearchItem[] };

/** GET /api/v1/task/by-priority: Open tasks whose priority is one of the given ones, e.g. ?priorities[]=high&priorities[]=urgent. */
export type GetTaskByPriorityItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskByPriorityRequest {
  path: {};
  query: {
    priorities: (string)[];
  };
}
export type GetTaskByPriorityResponse = { data: GetTaskByPriorityItem[] };

/** GET /api/v1/task/unassigned: Open tasks nobody is assigned to, in projects that are not completed or archived. Admins and managers. */
export type GetTaskUnassignedItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskUnassignedRequest {
  path: {};
  query: {};
}
export type GetTaskUnassignedResponse = { data: GetTaskUnassignedItem[] };

/** GET /api/v1/task/overdue: Open tasks whose due date has passed (custom where with CURRENT_DATE). */
export type GetTaskOverdueItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskOverdueRequest {
  path: {};
  query: {};
}
export type GetTaskOverdueResponse = { data: GetTaskOverdueItem[] };

/** GET /api/v1/task/large: Open tasks estimated at 16 hours or more: candidates for splitting. */
export type GetTaskLargeItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
};
export interface GetTaskLargeRequest {
  path: {};
  query: {};
}
export type GetTaskLargeResponse = { data: GetTaskLargeItem[] };

/** GET /api/v1/task/late-for-project: Tasks whose due date is later than their project's due date (compares two columns). Admins and managers. */
export type GetTaskLateForProjectItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
  projectDueDate: string | null;
};
export interface GetTaskLateForProjectRequest {
  path: {};
  query: {};
}
export type GetTaskLateForProjectResponse = { data: GetTaskLateForProjectItem[] };

/** GET /api/v1/task/stats: Number of tasks, open tasks and urgent open tasks per project (GROUP BY). Admins and managers. */
export type GetTaskStatsItem = {
  projectId: number;
  taskCount: number;
  openCount: number;
  urgentOpenCount: number;
};
export interface GetTaskStatsRequest {
  path: {};
  query: {};
}
export type GetTaskStatsResponse = { data: GetTaskStatsItem[] };

/** GET /api/v1/task/:id: One task with its project, assignee, creator, tags and comments (with author names). */
export type GetTaskByIdItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  description: string | null;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
  createdOn: string;
  assigneeFirstName: string | null;
  assigneeLastName: string | null;
  createdById: number | null;
  createdByFirstName: string | null;
  tags: Array<{
    id: number;
    name: string;
    color: string;
  }>;
  comments: Array<{
    id: number;
    body: string;
    authorId: number | null;
    authorFirstName: string | null;
    authorLastName: string | null;
    createdOn: string;
  }>;
};
export interface GetTaskByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type GetTaskByIdResponse = { data: GetTaskByIdItem };

/** POST /api/v1/task: Creates a task in one of the caller's company's projects. companyId and createdById come from the token; the composite foreign key rejects a project of another company. Needs the tasks:write scope. */
export type PostTaskItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  description: string | null;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
  createdOn: string;
};
export interface PostTaskRequest {
  path: {};
  body: {
    projectId: number;
    title: string;
    description?: string | null;
    priority?: "low" | "medium" | "high" | "urgent";
    estimateHours?: number | null;
    assigneeId?: number | null;
    dueDate?: string | null;
  };
}
export type PostTaskResponse = { data: PostTaskItem };

/** PATCH /api/v1/task/:id: Updates a task of the caller's company. Needs the tasks:write scope. */
export type PatchTaskByIdItem = {
  id: number;
  projectId: number;
  projectName: string;
  title: string;
  description: string | null;
  priority: "low" | "medium" | "high" | "urgent";
  estimateHours: number | null;
  done: boolean;
  dueDate: string | null;
  assigneeId: number | null;
  createdOn: string;
};
export interface PatchTaskByIdRequest {
  path: {
    id: string | number;
  };
  body: {
    title?: string;
    description?: string | null;
    priority?: "low" | "medium" | "high" | "urgent";
    estimateHours?: number | null;
    assigneeId?: number | null;
    dueDate?: string | null;
    done?: boolean;
  };
}
export type PatchTaskByIdResponse = { data: PatchTaskByIdItem };

/** DELETE /api/v1/task/:id: Admins and managers with the tasks:write scope delete a task (its comments and tags go with it). */
export type DeleteTaskByIdItem = Record<string, never>;
export interface DeleteTaskByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type DeleteTaskByIdResponse = { data: true };

/** POST /api/v1/task/:id/attachments: Stores uploaded files (multipart field `files`) for a task and returns their descriptions. */
export type PostTaskByIdAttachmentsItem = TaskAttachment;
export interface PostTaskByIdAttachmentsRequest {
  path: {
    id: string | number;
  };
  body: {
    note?: string;
  };
}
export type PostTaskByIdAttachmentsResponse = { data: PostTaskByIdAttachmentsItem[] };

/** POST /api/v1/comment: Adds a comment to a task the caller can see (row policy through the task); authorId comes from the token. */
export type PostCommentItem = {
  id: number;
  taskId: number;
  body: string;
  authorId: number | null;
  authorFirstName: string | null;
  createdOn: string;
};
export interface PostCommentRequest {
  path: {};
  body: {
    taskId: number;
    body: string;
  };
}
export type PostCommentResponse = { data: PostCommentItem };

/** DELETE /api/v1/comment/:id: Deletes one of the caller's own comments. */
export type DeleteCommentByIdItem = Record<string, never>;
export interface DeleteCommentByIdRequest {
  path: {
    id: string | number;
  };
  query: {};
}
export type DeleteCommentByIdResponse = { data: true };

/** GET /api/v1/tag: The caller's company's tags with how many tasks carry each. */
export type GetTagItem = {
  id: number;
  name: string;
  color: string;
  taskCount: number;
};
export interface GetTagRequest {
  path: {};
  query: {};
}
export type GetTagResponse = { data: GetTagItem[] };

/** GET /api/v1/invoice: The company's invoices except voided ones, newest first. Needs the billing:read scope (route and table) and the admin or manager role. */
export type GetInvoiceItem = {
  id: number;
  number: string;
  amount: number;
  currency: string;
  status: "draft" | "issued" | "paid" | "void";
  issuedOn: string | null;
  paidOn: string | null;
  lineItems: Json;
  companyName: string;
};
export interface GetInvoiceRequest {
  path: {};
  query: {};
}
export type GetInvoiceResponse = { data: GetInvoiceItem[] };

/** POST /api/v1/report/summary: Task counts and estimates per project or per assignee for a date range. The whole body is a ReportSummaryRequest. */
export type PostReportSummaryItem = ReportSummary;
export interface PostReportSummaryRequest {
  path: {};
  body: ReportSummaryRequest;
}
export type PostReportSummaryResponse = { data: PostReportSummaryItem };

/** Every route by `METHOD /path`: its request and response types. */
export interface Api {
  "POST /api/v1/user/login": { request: PostUserLoginRequest; response: PostUserLoginResponse };
  "POST /api/v1/user/refresh-token": { request: PostUserRefreshTokenRequest; response: PostUserRefreshTokenResponse };
  "GET /api/v1/company/public/:id": { request: GetCompanyPublicByIdRequest; response: GetCompanyPublicByIdResponse };
  "GET /api/v1/user/me": { request: GetUserMeRequest; response: GetUserMeResponse };
  "PATCH /api/v1/user/me": { request: PatchUserMeRequest; response: PatchUserMeResponse };
  "GET /api/v1/user/me/session": { request: GetUserMeSessionRequest; response: GetUserMeSessionResponse };
  "POST /api/v1/user/me/avatar": { request: PostUserMeAvatarRequest; response: PostUserMeAvatarResponse };
  "GET /api/v1/company/me": { request: GetCompanyMeRequest; response: GetCompanyMeResponse };
  "GET /api/v1/user": { request: GetUserRequest; response: GetUserResponse };
  "GET /api/v1/user/search": { request: GetUserSearchRequest; response: GetUserSearchResponse };
  "PATCH /api/v1/user/:id": { request: PatchUserByIdRequest; response: PatchUserByIdResponse };
  "GET /api/v1/project": { request: GetProjectRequest; response: GetProjectResponse };
  "GET /api/v1/project/:id": { request: GetProjectByIdRequest; response: GetProjectByIdResponse };
  "POST /api/v1/project": { request: PostProjectRequest; response: PostProjectResponse };
  "PATCH /api/v1/project/:id": { request: PatchProjectByIdRequest; response: PatchProjectByIdResponse };
  "DELETE /api/v1/project/:id": { request: DeleteProjectByIdRequest; response: DeleteProjectByIdResponse };
  "GET /api/v1/task/mine": { request: GetTaskMineRequest; response: GetTaskMineResponse };
  "GET /api/v1/task/assigned-to-me": { request: GetTaskAssignedToMeRequest; response: GetTaskAssignedToMeResponse };
  "GET /api/v1/task/search": { request: GetTaskSearchRequest; response: GetTaskSearchResponse };
  "GET /api/v1/task/by-priority": { request: GetTaskByPriorityRequest; response: GetTaskByPriorityResponse };
  "GET /api/v1/task/unassigned": { request: GetTaskUnassignedRequest; response: GetTaskUnassignedResponse };
  "GET /api/v1/task/overdue": { request: GetTaskOverdueRequest; response: GetTaskOverdueResponse };
  "GET /api/v1/task/large": { request: GetTaskLargeRequest; response: GetTaskLargeResponse };
  "GET /api/v1/task/late-for-project": { request: GetTaskLateForProjectRequest; response: GetTaskLateForProjectResponse };
  "GET /api/v1/task/stats": { request: GetTaskStatsRequest; response: GetTaskStatsResponse };
  "GET /api/v1/task/:id": { request: GetTaskByIdRequest; response: GetTaskByIdResponse };
  "POST /api/v1/task": { request: PostTaskRequest; response: PostTaskResponse };
  "PATCH /api/v1/task/:id": { request: PatchTaskByIdRequest; response: PatchTaskByIdResponse };
  "DELETE /api/v1/task/:id": { request: DeleteTaskByIdRequest; response: DeleteTaskByIdResponse };
  "POST /api/v1/task/:id/attachments": { request: PostTaskByIdAttachmentsRequest; response: PostTaskByIdAttachmentsResponse };
  "POST /api/v1/comment": { request: PostCommentRequest; response: PostCommentResponse };
  "DELETE /api/v1/comment/:id": { request: DeleteCommentByIdRequest; response: DeleteCommentByIdResponse };
  "GET /api/v1/tag": { request: GetTagRequest; response: GetTagResponse };
  "GET /api/v1/invoice": { request: GetInvoiceRequest; response: GetInvoiceResponse };
  "POST /api/v1/report/summary": { request: PostReportSummaryRequest; response: PostReportSummaryResponse };
}
