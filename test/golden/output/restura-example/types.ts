// Generated from api.schema.json by `make migrate` / `make check`: do not edit.
// What each route accepts and answers (docs/generated-output.md).

/** Any JSON value (JSON and JSONB columns, raw SQL selectors without a declared type). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

// The schema's customTypes, as written.
export interface FilteredUser {
    id: number;
	companyId: number;
	firstName: string;
	lastName: string;
	email: string;
	role: string;
	phone: string;
	lastLoginOn: string;
}
export interface AuthResponse {
    token: string;
    tokenExp: string;
    refreshToken: string;
    refreshTokenExp: string;
}
export interface WeatherResponse {
    currentTemperatureF: number;
    sunrise: string;
    sunset: string;
    pressure: number;
    humidityPercent: number;
    windSpeedMph: number;
    windDirection: string;
    tomorrowHighF: number;
    tomorrowLowF: number;
}
export interface Test extends Restura.PageQuery {
    test: string;
}

/** What Restura customTypes may extend: Restura's paging parameters. */
export declare namespace Restura {
  interface PageQuery {
    page?: number;
    perPage?: number;
    sortBy?: string;
    sortOrder?: "ASC" | "DESC";
    filter?: string;
  }
}

// Tables: every readable column (private ones never leave the database).

/** Table "item". */
export interface ItemRow {
  id: number;
  createdOn: string;
  modifiedOn: string;
  orderId: number | null;
}

/** Table "order". */
export interface OrderRow {
  id: number;
  createdOn: string;
  modifiedOn: string;
  userId: number;
  amountCents: number;
  amount: number | null;
}

/** Table "company". */
export interface CompanyRow {
  id: number;
  createdOn: string;
  modifiedOn: string;
  name: string | null;
}

/** Table "user". */
export interface UserRow {
  id: number;
  createdOn: string;
  modifiedOn: string;
  firstName: string;
  lastName: string;
  companyId: number;
  password: string;
  email: string;
  role: "admin" | "user";
  permissionLogin: boolean;
  lastLoginOn: string | null;
  phone: string | null;
  loginDisabledOn: string | null;
  passwordResetGuid: string | null;
  verifyEmailPin: number | null;
  verifyEmailPinExpiresOn: string | null;
  accountStatus: "banned" | "view_only" | "active";
  passwordResetExpiresOn: string | null;
  onboardingStatus: "verify_email" | "complete";
  pendingEmail: string | null;
  testAge: number;
  metadata: Json;
  birthDate: string | null;
}

// Routes: the request each accepts and the envelope it answers with.

/** POST /api/v1/user/me/avatar: Uploading a users avatar and updating the user */
export type PostUserMeAvatarItem = boolean;
export interface PostUserMeAvatarRequest {
  path: {};
  body: {};
}
export type PostUserMeAvatarResponse = { data: PostUserMeAvatarItem };

/** GET /api/v1/user/me: Get my user */
export type GetUserMeItem = {
  id: number;
  createdOn: string;
  modifiedOn: string;
  firstName: string;
  lastName: string;
  companyId: number;
  email: string;
  role: "admin" | "user";
  permissionLogin: boolean;
  lastLoginOn: string | null;
  phone: string | null;
  accountStatus: "banned" | "view_only" | "active";
  onboardingStatus: "verify_email" | "complete";
  testAge: number;
  metadata: Json;
};
export interface GetUserMeRequest {
  path: {};
  query: {};
}
export type GetUserMeResponse = { data: GetUserMeItem };

/** POST /api/v1/user/login: User login endpoint */
export type PostUserLoginItem = AuthResponse;
export interface PostUserLoginRequest {
  path: {};
  body: {
    username: string;
    password: string;
  };
}
export type PostUserLoginResponse = { data: PostUserLoginItem };

/** POST /api/v1/user/refresh-token: Refresh an old, possibly expired token and returns a new token. */
export type PostUserRefreshTokenItem = AuthResponse;
export interface PostUserRefreshTokenRequest {
  path: {};
  body: {};
}
export type PostUserRefreshTokenResponse = { data: PostUserRefreshTokenItem };

/** POST /api/v1/user/change-email: Request to change email. Sends a verification email with pin */
export type PostUserChangeEmailItem = boolean;
export interface PostUserChangeEmailRequest {
  path: {};
  body: {
    newEmail: string;
  };
}
export type PostUserChangeEmailResponse = { data: PostUserChangeEmailItem };

/** PATCH /api/v1/user/change-email/commit: Commits an email change with a pin */
export type PatchUserChangeEmailCommitItem = boolean;
export interface PatchUserChangeEmailCommitRequest {
  path: {};
  body: {
    pin: number;
  };
}
export type PatchUserChangeEmailCommitResponse = { data: PatchUserChangeEmailCommitItem };

/** POST /api/v1/user: Creates a user. */
export type PostUserItem = FilteredUser;
export interface PostUserRequest {
  path: {};
  body: {
    firstName: string;
    lastName: string;
    email: string;
    role: "admin" | "user";
    password: string;
    phone?: string;
  };
}
export type PostUserResponse = { data: PostUserItem };

/** PATCH /api/v1/user: Update an existing user. */
export type PatchUserItem = FilteredUser;
export interface PatchUserRequest {
  path: {};
  body: {
    id: number;
    firstName?: string;
    lastName?: string;
    email?: string;
    role?: "admin" | "user";
    password?: string;
  };
}
export type PatchUserResponse = { data: PatchUserItem };

/** POST /api/v1/user/logout: User logout endpoint */
export type PostUserLogoutItem = boolean;
export interface PostUserLogoutRequest {
  path: {};
  body: {};
}
export type PostUserLogoutResponse = { data: PostUserLogoutItem };

/** POST /api/v1/user/check-available: Checks if a given username or email or both are available or not */
export type PostUserCheckAvailableItem = boolean;
export interface PostUserCheckAvailableRequest {
  path: {};
  body: {
    username?: string;
    email?: string;
  };
}
export type PostUserCheckAvailableResponse = { data: PostUserCheckAvailableItem };

/** POST /api/v1/user/verify-password: Verifies a user password to get past security checkpoints */
export type PostUserVerifyPasswordItem = boolean;
export interface PostUserVerifyPasswordRequest {
  path: {};
  body: {
    password: string;
  };
}
export type PostUserVerifyPasswordResponse = { data: PostUserVerifyPasswordItem };

/** POST /api/v1/user/resend-verify-email: Resend the email that sends out the verify email pin */
export type PostUserResendVerifyEmailItem = boolean;
export interface PostUserResendVerifyEmailRequest {
  path: {};
  body: {};
}
export type PostUserResendVerifyEmailResponse = { data: PostUserResendVerifyEmailItem };

/** POST /api/v1/user/forgot-password: Sends a forgot password request */
export type PostUserForgotPasswordItem = boolean;
export interface PostUserForgotPasswordRequest {
  path: {};
  body: {
    email: string;
  };
}
export type PostUserForgotPasswordResponse = { data: PostUserForgotPasswordItem };

/** POST /api/v1/user/change-password: Changes a password of the user */
export type PostUserChangePasswordItem = boolean;
export interface PostUserChangePasswordRequest {
  path: {};
  body: {
    oldPassword: string;
    newPassword: string;
  };
}
export type PostUserChangePasswordResponse = { data: PostUserChangePasswordItem };

/** POST /api/v1/user/reset-password: Resets a password using a reset password guid */
export type PostUserResetPasswordItem = boolean;
export interface PostUserResetPasswordRequest {
  path: {};
  body: {
    guid: string;
    newPassword: string;
  };
}
export type PostUserResetPasswordResponse = { data: PostUserResetPasswordItem };

/** POST /api/v1/user/verify-email: Verifies an email given a pin */
export type PostUserVerifyEmailItem = boolean;
export interface PostUserVerifyEmailRequest {
  path: {};
  body: {
    pin: number;
  };
}
export type PostUserVerifyEmailResponse = { data: PostUserVerifyEmailItem };

/** POST /api/v1/user/delete/me: Deletes the user that calls this. This is a post so we don't show password on url. */
export type PostUserDeleteMeItem = boolean;
export interface PostUserDeleteMeRequest {
  path: {};
  body: {
    password: string;
  };
}
export type PostUserDeleteMeResponse = { data: PostUserDeleteMeItem };

/** PATCH /api/v1/user/me: Update my user */
export type PatchUserMeItem = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
};
export interface PatchUserMeRequest {
  path: {};
  body: {
    firstName?: string;
    lastName?: string;
    email?: string;
    phone?: string | null;
    password?: string;
  };
}
export type PatchUserMeResponse = { data: PatchUserMeItem };

/** GET /api/v1/weather: Gets the weather data from openweather.org */
export type GetWeatherItem = WeatherResponse;
export interface GetWeatherRequest {
  path: {};
  query: {
    token: string;
    latitude: number;
    longitude: number;
  };
}
export type GetWeatherResponse = { data: GetWeatherItem };

/** GET /api/v1/user/all */
export type GetUserAllItem = {
  id: number;
  createdOn: string;
  modifiedOn: string;
  firstName: string;
  lastName: string;
  companyId: number;
  password: string;
  email: string;
  role: "admin" | "user";
  permissionLogin: boolean;
  lastLoginOn: string | null;
  phone: string | null;
  loginDisabledOn: string | null;
  passwordResetGuid: string | null;
  verifyEmailPin: number | null;
  verifyEmailPinExpiresOn: string | null;
  accountStatus: "banned" | "view_only" | "active";
  passwordResetExpiresOn: string | null;
  onboardingStatus: "verify_email" | "complete";
  pendingEmail: string | null;
  testAge: number;
  metadata: Json;
};
export interface GetUserAllRequest {
  path: {};
  query: {};
}
export type GetUserAllResponse = { data: GetUserAllItem[] };

/** GET /api/v1/order/all: Multi Join */
export type GetOrderAllItem = {
  id: number;
  userFirstName: string;
  userLastName: string;
  companyName: string | null;
};
export interface GetOrderAllRequest {
  path: {};
  query: {};
}
export type GetOrderAllResponse = { data: GetOrderAllItem[] };

/** GET /api/v1/user/before */
export type GetUserBeforeItem = {
  id: number;
  firstName: string;
  lastName: string;
  companyName: string | null;
};
export interface GetUserBeforeRequest {
  path: {};
  query: {
    date: string;
  };
}
export type GetUserBeforeResponse = { data: GetUserBeforeItem[] };

/** GET /api/v1/user/all/orders: Gets all the users with a custom select for order counts */
export type GetUserAllOrdersItem = {
  firstName: string;
  lastName: string;
  orderCount: number;
};
export interface GetUserAllOrdersRequest {
  path: {};
  query: {};
}
export type GetUserAllOrdersResponse = { data: GetUserAllOrdersItem[] };

/** GET /api/v1/user/with-orders: Get a list of users with their orders */
export type GetUserWithOrdersItem = {
  id: number;
  firstName: string;
  lastName: string;
  order: Array<{
    id: number;
    createdOn: string;
    modifiedOn: string;
  }>;
};
export interface GetUserWithOrdersRequest {
  path: {};
  query: {};
}
export type GetUserWithOrdersResponse = { data: GetUserWithOrdersItem[] };

/** GET /api/v1/item/all: Test to see if left join on orders will have nullable properly */
export type GetItemAllItem = {
  id: number;
  createdOn: string;
  modifiedOn: string;
  orderAmountCents: number | null;
};
export interface GetItemAllRequest {
  path: {};
  query: {};
}
export type GetItemAllResponse = { data: GetItemAllItem[] };

/** GET /api/v1/user/my-user: Gets my user */
export type GetUserMyUserItem = {
  id: number;
  createdOn: string;
  modifiedOn: string;
  firstName: string;
  lastName: string;
  companyId: number;
  email: string;
  role: "admin" | "user";
  permissionLogin: boolean;
  lastLoginOn: string | null;
  phone: string | null;
  accountStatus: "banned" | "view_only" | "active";
  onboardingStatus: "verify_email" | "complete";
  testAge: number;
  metadata: Json;
};
export interface GetUserMyUserRequest {
  path: {};
  query: {};
}
export type GetUserMyUserResponse = { data: GetUserMyUserItem };

/** GET /api/v1/user/paged: Gets a list of users paged */
export type GetUserPagedItem = {
  id: number;
  createdOn: string;
  modifiedOn: string;
  firstName: string;
  lastName: string;
  companyId: number;
  email: string;
  role: "admin" | "user";
  permissionLogin: boolean;
  lastLoginOn: string | null;
  phone: string | null;
  accountStatus: "banned" | "view_only" | "active";
  onboardingStatus: "verify_email" | "complete";
  testAge: number;
  metadata: Json;
};
export interface GetUserPagedRequest {
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
export type GetUserPagedResponse = { data: GetUserPagedItem[]; total: number; next?: string | null };

/** Every route by `METHOD /path`: its request and response types. */
export interface Api {
  "POST /api/v1/user/me/avatar": { request: PostUserMeAvatarRequest; response: PostUserMeAvatarResponse };
  "GET /api/v1/user/me": { request: GetUserMeRequest; response: GetUserMeResponse };
  "POST /api/v1/user/login": { request: PostUserLoginRequest; response: PostUserLoginResponse };
  "POST /api/v1/user/refresh-token": { request: PostUserRefreshTokenRequest; response: PostUserRefreshTokenResponse };
  "POST /api/v1/user/change-email": { request: PostUserChangeEmailRequest; response: PostUserChangeEmailResponse };
  "PATCH /api/v1/user/change-email/commit": { request: PatchUserChangeEmailCommitRequest; response: PatchUserChangeEmailCommitResponse };
  "POST /api/v1/user": { request: PostUserRequest; response: PostUserResponse };
  "PATCH /api/v1/user": { request: PatchUserRequest; response: PatchUserResponse };
  "POST /api/v1/user/logout": { request: PostUserLogoutRequest; response: PostUserLogoutResponse };
  "POST /api/v1/user/check-available": { request: PostUserCheckAvailableRequest; response: PostUserCheckAvailableResponse };
  "POST /api/v1/user/verify-password": { request: PostUserVerifyPasswordRequest; response: PostUserVerifyPasswordResponse };
  "POST /api/v1/user/resend-verify-email": { request: PostUserResendVerifyEmailRequest; response: PostUserResendVerifyEmailResponse };
  "POST /api/v1/user/forgot-password": { request: PostUserForgotPasswordRequest; response: PostUserForgotPasswordResponse };
  "POST /api/v1/user/change-password": { request: PostUserChangePasswordRequest; response: PostUserChangePasswordResponse };
  "POST /api/v1/user/reset-password": { request: PostUserResetPasswordRequest; response: PostUserResetPasswordResponse };
  "POST /api/v1/user/verify-email": { request: PostUserVerifyEmailRequest; response: PostUserVerifyEmailResponse };
  "POST /api/v1/user/delete/me": { request: PostUserDeleteMeRequest; response: PostUserDeleteMeResponse };
  "PATCH /api/v1/user/me": { request: PatchUserMeRequest; response: PatchUserMeResponse };
  "GET /api/v1/weather": { request: GetWeatherRequest; response: GetWeatherResponse };
  "GET /api/v1/user/all": { request: GetUserAllRequest; response: GetUserAllResponse };
  "GET /api/v1/order/all": { request: GetOrderAllRequest; response: GetOrderAllResponse };
  "GET /api/v1/user/before": { request: GetUserBeforeRequest; response: GetUserBeforeResponse };
  "GET /api/v1/user/all/orders": { request: GetUserAllOrdersRequest; response: GetUserAllOrdersResponse };
  "GET /api/v1/user/with-orders": { request: GetUserWithOrdersRequest; response: GetUserWithOrdersResponse };
  "GET /api/v1/item/all": { request: GetItemAllRequest; response: GetItemAllResponse };
  "GET /api/v1/user/my-user": { request: GetUserMyUserRequest; response: GetUserMyUserResponse };
  "GET /api/v1/user/paged": { request: GetUserPagedRequest; response: GetUserPagedResponse };
}
