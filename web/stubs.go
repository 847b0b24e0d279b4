package web

func (s *Server) examsPage(c *ctx) error          { return errNotFound }
func (s *Server) examRegister(c *ctx) error       { return errNotFound }
func (s *Server) examWithdraw(c *ctx) error       { return errNotFound }
func (s *Server) teach(c *ctx) error              { return errNotFound }
func (s *Server) classPage(c *ctx) error          { return errNotFound }
func (s *Server) classCSV(c *ctx) error           { return errNotFound }
func (s *Server) classRotateCode(c *ctx) error    { return errNotFound }
func (s *Server) classAddManaged(c *ctx) error    { return errNotFound }
func (s *Server) studentPage(c *ctx) error        { return errNotFound }
func (s *Server) adminHome(c *ctx) error          { return errNotFound }
func (s *Server) adminAudit(c *ctx) error         { return errNotFound }
func (s *Server) adminAuditCSV(c *ctx) error      { return errNotFound }
func (s *Server) adminPromotions(c *ctx) error    { return errNotFound }
func (s *Server) adminDecide(c *ctx) error        { return errNotFound }
func (s *Server) adminVerification(c *ctx) error  { return errNotFound }
func (s *Server) adminRunJob(c *ctx) error        { return errNotFound }
func (s *Server) adminCreateAccount(c *ctx) error { return errNotFound }
