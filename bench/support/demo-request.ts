/** The form body of the index-th demo request a load benchmark posts: every field filled, honeypot empty. */
export function demoRequestBody(index: number, email: string): URLSearchParams {
  return new URLSearchParams({
    first_name: `Load${index}`,
    last_name: "Test",
    email,
    company: "Bench Ltd",
    job_title: "Tester",
    phone: "555-0100",
    company_size: "51-200",
    product_name: "Sentinel",
    message: `Request ${index}`,
    website: "",
  });
}
