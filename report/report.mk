# report/report.mk - build/libfzreport.a: what fz-plot and fz-cov share
# (HTML page frame and SVG charts, plot_data reader, output-directory
# instances, the coverage readers).

REPORT_SRCS := report/html.c report/plotdata.c report/campaign.c report/json.c report/cov.c report/covpage.c
REPORT_OBJS := $(REPORT_SRCS:%.c=$(OBJ)/%.o)

$(OBJ)/libfzreport.a: $(REPORT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

ALL += $(OBJ)/libfzreport.a

UNIT_TESTS += $(OBJ)/tests/check_report

$(OBJ)/tests/check_report: tests/check_report.c $(OBJ)/libfzreport.a $(OBJ)/libfzcore.a
	@mkdir -p $(dir $@)
	$(CC) $(FZ_CFLAGS) $(CHECK_CFLAGS) -o $@ $(LINK_IN) $(CHECK_LIBS) -lm
