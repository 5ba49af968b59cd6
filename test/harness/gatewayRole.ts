/** The password test/run.ts gives api_gateway for the run (a throwaway cluster on loopback). */
export const GATEWAY_TEST_PASSWORD = "gateway-test-password";
