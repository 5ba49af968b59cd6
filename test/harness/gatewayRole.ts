/** The password test/run.ts gives api_gateway for the run (a throwaway cluster on loopback). */
export const GATEWAY_TEST_PASSWORD = "gateway-test-password";
/** The password test/run.ts gives api_service, the role behind req.service (gateway/pool.ts). */
export const SERVICE_TEST_PASSWORD = "service-test-password";
